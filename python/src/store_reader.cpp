#include "store_reader.h"

#include <fmt/format.h>

#include "kerchunk/json/kerchunk_json.h"
#include "local_reads.h"

namespace kerchunk::python {

namespace {

constexpr std::string_view kFileScheme = "file://";

// What a resolved key becomes before any byte is read.
FetchedValue Pending(const pack::ResolvedValue& v) {
  FetchedValue out;
  switch (v.kind) {
    case EntryValue::Kind::kText:
    case EntryValue::Kind::kBase64:
    case EntryValue::Kind::kJson:
      out.kind = FetchedValue::Kind::kBytes;
      out.bytes.assign(v.data);
      break;
    case EntryValue::Kind::kRange:
      out.kind = FetchedValue::Kind::kRemote;
      out.offset = v.offset;
      out.length = v.length;
      break;
    case EntryValue::Kind::kWholeFile:
      out.kind = FetchedValue::Kind::kRemote;
      break;
  }
  return out;
}

}  // namespace

std::optional<std::string> LocalPath(std::string_view url) {
  if (url.starts_with(kFileScheme)) return std::string(url.substr(kFileScheme.size()));
  if (url.find("://") != std::string_view::npos) return std::nullopt;
  return std::string(url);
}

Result<StoreReader> StoreReader::Open(const std::string& path, StoreOptions options) {
  // Told apart by the first bytes, then each read by its own reader: the plain reader loads
  // the file straight into simdjson's padded buffer (no second copy of a large JSON).
  if (pack::IsPackedFile(path)) {
    KERCHUNK_ASSIGN_OR_RETURN(pack::PackedIndex index, pack::PackedIndex::Open(path));
    return StoreReader(std::move(index), std::move(options), true);
  }
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet refs, ReadKerchunkFile(path));
  KERCHUNK_ASSIGN_OR_RETURN(pack::PackedIndex index,
                            pack::PackedIndex::FromReferences(std::move(refs)));
  return StoreReader(std::move(index), std::move(options), false);
}

Result<StoreReader> StoreReader::Parse(std::string_view text, std::string_view name,
                                       StoreOptions options) {
  if (pack::LooksPacked(text.substr(0, 256))) {
    auto index = pack::PackedIndex::Parse(text);
    if (!index.ok()) return std::move(index).status().Annotate(name);
    return StoreReader(std::move(*index), std::move(options), true);
  }
  auto refs = ParseKerchunkJson(text);
  if (!refs.ok()) return std::move(refs).status().Annotate(name);
  KERCHUNK_ASSIGN_OR_RETURN(pack::PackedIndex index,
                            pack::PackedIndex::FromReferences(std::move(*refs)));
  return StoreReader(std::move(index), std::move(options), false);
}

std::string StoreReader::Rewritten(std::string_view url) const {
  if (options_.rewrites.empty()) return std::string(url);
  auto rewritten = ApplyLongestPrefix(options_.rewrites, url);
  return rewritten ? *rewritten : std::string(url);
}

Result<std::vector<FetchedValue>> StoreReader::GetMany(std::span<const std::string> keys) const {
  std::vector<FetchedValue> out(keys.size());
  std::vector<internal::LocalRead> reads;
  for (size_t i = 0; i < keys.size(); ++i) {
    auto resolved = index_.Resolve(keys[i]);
    if (!resolved.ok())
      return std::move(resolved).status().Annotate(fmt::format("key {}", keys[i]));
    if (!*resolved) continue;  // kAbsent
    out[i] = Pending(**resolved);
    if (out[i].kind != FetchedValue::Kind::kRemote) continue;
    out[i].url = Rewritten((*resolved)->url);
    if (auto path = LocalPath(out[i].url)) {
      reads.push_back({std::move(*path), out[i].offset, out[i].length, keys[i], out[i].url, i});
    }
  }
  KERCHUNK_RETURN_IF_ERROR(internal::ReadLocalRanges(reads));
  for (auto& r : reads) {
    out[r.slot].kind = FetchedValue::Kind::kBytes;
    out[r.slot].bytes = std::move(r.bytes);
  }
  return out;
}

Result<bool> StoreReader::Contains(std::string_view key) const {
  auto resolved = index_.Resolve(key);
  if (!resolved.ok()) return std::move(resolved).status().Annotate(fmt::format("key {}", key));
  return resolved->has_value();
}

std::vector<std::string> StoreReader::EntryKeys() const {
  std::vector<std::string> keys;
  for (const Entry& e : index_.entries()) keys.push_back(e.key);
  return keys;
}

}  // namespace kerchunk::python
