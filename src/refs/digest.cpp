#include "kerchunk/refs/digest.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <vector>

// Header-only: the hash functions inline into the digest loop, and the installed library needs
// no xxhash at link time.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace kerchunk {
namespace {

// Makes the second sum independent of the first (any odd 64-bit constant would do).
constexpr uint64_t kMixKey = 0x6B65726368756E6BULL;  // "kerchunk"

// MurmurHash3's 64-bit finalizer.
uint64_t Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xFF51AFD7ED558CCDULL;
  k ^= k >> 33;
  k *= 0xC4CEB9FE1A85EC53ULL;
  k ^= k >> 33;
  return k;
}

// Stores v little-endian at p (one 8-byte store on little-endian machines).
char* StoreLe64(char* p, uint64_t v) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
  return p + 8;
}

void AppendLe64(std::string& out, uint64_t v) {
  char buf[8];
  StoreLe64(buf, v);
  out.append(buf, 8);
}

// Formats the chunk keys of one array in increasing chunk order. Consecutive chunks (the
// common case) advance an odometer instead of dividing the linear index in every dimension.
class ChunkKeyWriter {
 public:
  // The key is written into a buffer that holds the prefix once and room for every coordinate
  // (20 digits and a separator each), so formatting a key never allocates.
  explicit ChunkKeyWriter(const ArrayRefs& a)
      : grid_(a.grid()), prefix_size_(a.KeyPrefix().size()), coords_(grid_.rank(), 0) {
    buffer_.resize(prefix_size_ + 21 * std::max<size_t>(1, grid_.rank()));
    std::string prefix = a.KeyPrefix();
    std::copy(prefix.begin(), prefix.end(), buffer_.begin());
  }

  std::string_view Key(uint64_t chunk) {
    if (!valid_ || chunk != last_ + 1) {
      grid_.Coords(chunk, coords_);
    } else {
      for (size_t d = coords_.size(); d-- > 0;) {
        if (++coords_[d] < grid_.counts()[d]) break;
        coords_[d] = 0;
      }
    }
    valid_ = true;
    last_ = chunk;
    char* p = buffer_.data() + prefix_size_;
    char* end = buffer_.data() + buffer_.size();
    if (coords_.empty()) *p++ = '0';
    for (size_t d = 0; d < coords_.size(); ++d) {
      if (d) *p++ = grid_.separator();
      p = std::to_chars(p, end, coords_[d]).ptr;
    }
    return std::string_view(buffer_.data(), static_cast<size_t>(p - buffer_.data()));
  }

 private:
  const ChunkGrid& grid_;
  size_t prefix_size_;
  std::vector<uint64_t> coords_;
  std::vector<char> buffer_;
  uint64_t last_ = 0;
  bool valid_ = false;
};

}  // namespace

uint64_t Xxh64(std::string_view data, uint64_t seed) {
  return XXH64(data.data(), data.size(), seed);
}

uint64_t Xxh3(std::string_view data) { return XXH3_64bits(data.data(), data.size()); }

std::string ReferenceDigest::ToString() const {
  return fmt::format("kcd{}:{}:{:016x}{:016x}", static_cast<int>(version), keys, sum, mixed);
}

Result<ReferenceDigest> ReferenceDigest::Parse(std::string_view text) {
  auto bad = [&] {
    return InvalidArgumentError(
        "expected a checksum \"kcd2:<keys>:<32 hex digits>\" (or kcd1), got \"{}\"",
        text.substr(0, 80));
  };
  ReferenceDigest d;
  if (text.starts_with("kcd1:")) {
    d.version = DigestVersion::kKcd1;
  } else if (text.starts_with("kcd2:")) {
    d.version = DigestVersion::kKcd2;
  } else {
    return bad();
  }
  std::string_view rest = text.substr(5);
  size_t colon = rest.find(':');
  if (colon == std::string_view::npos || rest.size() - colon - 1 != 32) return bad();
  auto parse = [](std::string_view s, uint64_t& v, int base) {
    if (s.empty() || s[0] == '+' || s[0] == '-') return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    return ec == std::errc() && p == s.data() + s.size();
  };
  std::string_view hex = rest.substr(colon + 1);
  if (!parse(rest.substr(0, colon), d.keys, 10) || !parse(hex.substr(0, 16), d.sum, 16) ||
      !parse(hex.substr(16), d.mixed, 16)) {
    return bad();
  }
  return d;
}

uint64_t DigestBuilder::Hash(std::string_view bytes) const {
  return digest_.version == DigestVersion::kKcd1 ? Xxh64(bytes) : Xxh3(bytes);
}

uint64_t DigestBuilder::UrlHash(std::string_view url) const { return Hash(url); }

void DigestBuilder::AddItem(std::string_view bytes) {
  uint64_t h = Hash(bytes);
  digest_.keys += 1;
  digest_.sum += h;
  digest_.mixed += Fmix64(h ^ kMixKey);
}

void DigestBuilder::AddEntry(std::string_view key, const EntryValue& value, const UrlTable& urls) {
  scratch_.assign(key);
  scratch_ += '\0';
  switch (value.kind) {
    case EntryValue::Kind::kText:
      scratch_ += 't';
      scratch_ += value.data;
      break;
    case EntryValue::Kind::kBase64:
      scratch_ += 'b';
      scratch_ += value.data;
      break;
    case EntryValue::Kind::kRange:
      scratch_ += 'r';
      AppendLe64(scratch_, UrlHash(urls[value.url]));
      AppendLe64(scratch_, value.offset);
      AppendLe64(scratch_, value.length);
      break;
    case EntryValue::Kind::kWholeFile:
      scratch_ += 'w';
      AppendLe64(scratch_, UrlHash(urls[value.url]));
      break;
    case EntryValue::Kind::kJson:
      scratch_ += 'j';
      scratch_ += value.data;
      break;
  }
  AddItem(scratch_);
}

void DigestBuilder::AddChunk(std::string_view key, const ChunkRef& ref, std::string_view url) {
  scratch_.assign(key);
  scratch_ += '\0';
  switch (ref.kind) {
    case RefKind::kInline:
      scratch_ += ref.base64 ? 'b' : 't';
      scratch_ += ref.data;
      break;
    case RefKind::kRange:
      scratch_ += 'r';
      AppendLe64(scratch_, UrlHash(url));
      AppendLe64(scratch_, ref.offset);
      AppendLe64(scratch_, ref.length);
      break;
    case RefKind::kWholeFile:
      scratch_ += 'w';
      AppendLe64(scratch_, UrlHash(url));
      break;
  }
  AddItem(scratch_);
}

void DigestBuilder::AddRange(std::string_view key, uint64_t url_hash, uint64_t offset,
                             uint64_t length) {
  // The hot path of every digest: the item is built on the stack when the key is short.
  char buf[256];
  if (key.size() + 26 > sizeof buf) {
    scratch_.assign(key);
    scratch_ += '\0';
    scratch_ += 'r';
    AppendLe64(scratch_, url_hash);
    AppendLe64(scratch_, offset);
    AppendLe64(scratch_, length);
    AddItem(scratch_);
    return;
  }
  std::memcpy(buf, key.data(), key.size());
  char* p = buf + key.size();
  *p++ = '\0';
  *p++ = 'r';
  p = StoreLe64(p, url_hash);
  p = StoreLe64(p, offset);
  p = StoreLe64(p, length);
  AddItem(std::string_view(buf, static_cast<size_t>(p - buf)));
}

ReferenceDigest DigestReferences(const ReferenceSet& refs, DigestVersion version) {
  DigestBuilder builder(version);
  for (const Entry& e : refs.entries) builder.AddEntry(e.key, e.value, refs.urls);
  std::vector<uint64_t> url_hashes;
  url_hashes.reserve(refs.urls.size());
  for (const auto& url : refs.urls.urls()) url_hashes.push_back(builder.UrlHash(url));
  for (const ArrayRefs& a : refs.arrays) {
    ChunkKeyWriter keys(a);
    const auto& urls = a.urls();
    const auto& lengths = a.lengths();
    for (size_t i = 0; i < a.size(); ++i) {
      std::string_view key = keys.Key(a.chunk_index(i));
      uint32_t u = urls[i];
      bool range = u <= ArrayRefs::kMaxUrlId && lengths[i] != ArrayRefs::kWholeFileLength;
      if (range) {
        builder.AddRange(key, url_hashes[u], a.offsets()[i], lengths[i]);
      } else {
        ChunkRef ref = a.Get(i);
        builder.AddChunk(key, ref, ref.kind == RefKind::kInline ? "" : refs.urls[ref.url]);
      }
    }
  }
  return builder.Finish();
}

}  // namespace kerchunk
