#include "kerchunk/refs/digest.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <vector>

namespace kerchunk {
namespace {

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kP3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kP4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kP5 = 0x27D4EB2F165667C5ULL;
// Makes the second sum independent of the first (any odd 64-bit constant would do).
constexpr uint64_t kMixKey = 0x6B65726368756E6BULL;  // "kerchunk"

uint64_t Load64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

uint32_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}

uint64_t Round(uint64_t acc, uint64_t input) {
  acc += input * kP2;
  acc = std::rotl(acc, 31);
  return acc * kP1;
}

uint64_t MergeRound(uint64_t acc, uint64_t value) {
  acc ^= Round(0, value);
  return acc * kP1 + kP4;
}

// MurmurHash3's 64-bit finalizer.
uint64_t Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xFF51AFD7ED558CCDULL;
  k ^= k >> 33;
  k *= 0xC4CEB9FE1A85EC53ULL;
  k ^= k >> 33;
  return k;
}

void AppendLe64(std::string& out, uint64_t v) {
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>((v >> (8 * i)) & 0xFF);
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
  const char* p = data.data();
  const char* end = p + data.size();
  uint64_t h;
  if (data.size() >= 32) {
    uint64_t v1 = seed + kP1 + kP2, v2 = seed + kP2, v3 = seed, v4 = seed - kP1;
    for (; p + 32 <= end; p += 32) {
      v1 = Round(v1, Load64(p));
      v2 = Round(v2, Load64(p + 8));
      v3 = Round(v3, Load64(p + 16));
      v4 = Round(v4, Load64(p + 24));
    }
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    h = MergeRound(h, v1);
    h = MergeRound(h, v2);
    h = MergeRound(h, v3);
    h = MergeRound(h, v4);
  } else {
    h = seed + kP5;
  }
  h += data.size();
  for (; p + 8 <= end; p += 8) {
    h ^= Round(0, Load64(p));
    h = std::rotl(h, 27) * kP1 + kP4;
  }
  if (p + 4 <= end) {
    h ^= static_cast<uint64_t>(Load32(p)) * kP1;
    h = std::rotl(h, 23) * kP2 + kP3;
    p += 4;
  }
  for (; p < end; ++p) {
    h ^= static_cast<uint64_t>(static_cast<uint8_t>(*p)) * kP5;
    h = std::rotl(h, 11) * kP1;
  }
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

std::string ReferenceDigest::ToString() const {
  return fmt::format("kcd1:{}:{:016x}{:016x}", keys, sum, mixed);
}

Result<ReferenceDigest> ReferenceDigest::Parse(std::string_view text) {
  auto bad = [&] {
    return InvalidArgumentError("expected a checksum \"kcd1:<keys>:<32 hex digits>\", got \"{}\"",
                                text.substr(0, 80));
  };
  if (!text.starts_with("kcd1:")) return bad();
  std::string_view rest = text.substr(5);
  size_t colon = rest.find(':');
  if (colon == std::string_view::npos || rest.size() - colon - 1 != 32) return bad();
  ReferenceDigest d;
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

void DigestBuilder::AddItem(std::string_view bytes) {
  uint64_t h = Xxh64(bytes);
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
      AppendLe64(scratch_, Xxh64(urls[value.url]));
      AppendLe64(scratch_, value.offset);
      AppendLe64(scratch_, value.length);
      break;
    case EntryValue::Kind::kWholeFile:
      scratch_ += 'w';
      AppendLe64(scratch_, Xxh64(urls[value.url]));
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
      AppendLe64(scratch_, Xxh64(url));
      AppendLe64(scratch_, ref.offset);
      AppendLe64(scratch_, ref.length);
      break;
    case RefKind::kWholeFile:
      scratch_ += 'w';
      AppendLe64(scratch_, Xxh64(url));
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
  for (uint64_t v : {url_hash, offset, length}) {
    for (int i = 0; i < 8; ++i) *p++ = static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  AddItem(std::string_view(buf, static_cast<size_t>(p - buf)));
}

ReferenceDigest DigestReferences(const ReferenceSet& refs) {
  DigestBuilder builder;
  for (const Entry& e : refs.entries) builder.AddEntry(e.key, e.value, refs.urls);
  std::vector<uint64_t> url_hashes;
  url_hashes.reserve(refs.urls.size());
  for (const auto& url : refs.urls.urls()) url_hashes.push_back(Xxh64(url));
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
