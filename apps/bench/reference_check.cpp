#include "kerchunk/bench/reference_check.h"

#include <fmt/format.h>

#include <unordered_map>

namespace kerchunk::bench {
namespace {

std::string Describe(const ChunkRef& ref, const UrlTable& urls) {
  switch (ref.kind) {
    case RefKind::kRange:
      return fmt::format("[\"{}\", {}, {}]", urls[ref.url], ref.offset, ref.length);
    case RefKind::kWholeFile:
      return fmt::format("[\"{}\"]", urls[ref.url]);
    case RefKind::kInline:
      return fmt::format("inline {} bytes{}", ref.data.size(), ref.base64 ? " (base64)" : "");
  }
  return "?";
}

std::string Describe(const EntryValue& value, const UrlTable& urls) {
  switch (value.kind) {
    case EntryValue::Kind::kRange:
      return fmt::format("[\"{}\", {}, {}]", urls[value.url], value.offset, value.length);
    case EntryValue::Kind::kWholeFile:
      return fmt::format("[\"{}\"]", urls[value.url]);
    case EntryValue::Kind::kBase64:
      return fmt::format("base64 of {} bytes", value.data.size());
    case EntryValue::Kind::kText:
    case EntryValue::Kind::kJson:
      return value.data.size() <= 80 ? fmt::format("'{}'", value.data)
                                     : fmt::format("'{}...'", value.data.substr(0, 77));
  }
  return "?";
}

bool SameEntry(const EntryValue& a, const UrlTable& a_urls, const EntryValue& b,
               const UrlTable& b_urls) {
  if (a.kind != b.kind || a.data != b.data) return false;
  if (a.kind == EntryValue::Kind::kRange) {
    return a.offset == b.offset && a.length == b.length && a_urls[a.url] == b_urls[b.url];
  }
  return a.kind != EntryValue::Kind::kWholeFile || a_urls[a.url] == b_urls[b.url];
}

Status CheckEntries(const ReferenceSet& expected, const ReferenceSet& actual,
                    std::string_view step) {
  std::unordered_map<std::string_view, const EntryValue*> by_key;
  for (const Entry& e : actual.entries) by_key.emplace(e.key, &e.value);
  for (const Entry& e : expected.entries) {
    auto it = by_key.find(e.key);
    if (it == by_key.end()) return DataLossError("{}: key {} is missing", step, e.key);
    if (!SameEntry(e.value, expected.urls, *it->second, actual.urls)) {
      return DataLossError("{}: key {}: expected {}, got {}", step, e.key,
                           Describe(e.value, expected.urls), Describe(*it->second, actual.urls));
    }
  }
  if (by_key.size() != expected.entries.size()) {
    return DataLossError("{}: expected {} non-chunk keys, got {}", step, expected.entries.size(),
                         by_key.size());
  }
  return OkStatus();
}

bool SameChunk(const ChunkRef& a, const UrlTable& a_urls, const ChunkRef& b,
               const UrlTable& b_urls) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case RefKind::kRange:
      return a.offset == b.offset && a.length == b.length && a_urls[a.url] == b_urls[b.url];
    case RefKind::kWholeFile:
      return a_urls[a.url] == b_urls[b.url];
    case RefKind::kInline:
      return a.data == b.data && a.base64 == b.base64;
  }
  return false;
}

Status CheckArray(const ArrayRefs& expected, const UrlTable& expected_urls, const ArrayRefs* actual,
                  const UrlTable& actual_urls, std::string_view step) {
  if (actual == nullptr || actual->empty()) {
    return DataLossError("{}: the {} chunk references of array '{}' are missing", step,
                         expected.size(), expected.path());
  }
  if (actual->size() != expected.size()) {
    return DataLossError("{}: array '{}': expected {} chunk references, got {}", step,
                         expected.path(), expected.size(), actual->size());
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected.chunk_index(i) != actual->chunk_index(i)) {
      return DataLossError("{}: array '{}': expected chunk {} at position {}, got chunk {}", step,
                           expected.path(), ChunkKey(expected, expected.chunk_index(i)), i,
                           ChunkKey(*actual, actual->chunk_index(i)));
    }
    ChunkRef a = expected.Get(i), b = actual->Get(i);
    if (!SameChunk(a, expected_urls, b, actual_urls)) {
      return DataLossError("{}: key {}: expected {}, got {}", step,
                           ChunkKey(expected, expected.chunk_index(i)), Describe(a, expected_urls),
                           Describe(b, actual_urls));
    }
  }
  return OkStatus();
}

size_t NonEmptyArrays(const ReferenceSet& refs) {
  size_t n = 0;
  for (const ArrayRefs& a : refs.arrays) n += a.empty() ? 0 : 1;
  return n;
}

}  // namespace

std::string ChunkKey(const ArrayRefs& array, uint64_t index) {
  std::string key = array.KeyPrefix();
  array.grid().AppendKey(index, key);
  return key;
}

Status CheckSameReferences(const ReferenceSet& expected, const ReferenceSet& actual,
                           std::string_view step) {
  KERCHUNK_RETURN_IF_ERROR(CheckEntries(expected, actual, step));
  for (const ArrayRefs& array : expected.arrays) {
    if (array.empty()) continue;
    KERCHUNK_RETURN_IF_ERROR(
        CheckArray(array, expected.urls, actual.FindArray(array.path()), actual.urls, step));
  }
  if (NonEmptyArrays(actual) != NonEmptyArrays(expected)) {
    for (const ArrayRefs& array : actual.arrays) {
      const ArrayRefs* other = expected.FindArray(array.path());
      if (!array.empty() && (other == nullptr || other->empty())) {
        return DataLossError("{}: array '{}' has {} chunk references that should not exist", step,
                             array.path(), array.size());
      }
    }
  }
  return OkStatus();
}

}  // namespace kerchunk::bench
