// Chunk keys that zarr would never read: the reader keeps every key that is not a canonical,
// in-grid chunk of an array with a .zarray as a plain entry, so these are found among the
// entries whose last path component looks like chunk coordinates.
#include <fmt/format.h>

#include <charconv>
#include <optional>

#include "verify/checks.h"

namespace kerchunk::verify::internal {
namespace {

bool IsChunkLikeComponent(std::string_view part) {
  if (part.empty()) return false;
  bool digit = false;
  for (char c : part) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c != '.' && c != '-') {
      return false;
    }
  }
  return digit;
}

std::string_view LastComponent(std::string_view key) {
  const size_t slash = key.rfind('/');
  return slash == std::string_view::npos ? key : key.substr(slash + 1);
}

std::string FormatDims(const std::vector<uint64_t>& v) {
  return fmt::format("[{}]", fmt::join(v, ", "));
}

// Why a chunk-like suffix is not a chunk of `grid` that zarr reads.
std::string DescribeBadSuffix(std::string_view suffix, const ChunkGrid& grid) {
  const char sep = grid.separator();
  const char other = sep == '.' ? '/' : '.';
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t end = suffix.find(sep, start);
    parts.push_back(suffix.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  const size_t rank = std::max<size_t>(grid.rank(), 1);
  if (suffix.find(other) != std::string_view::npos && parts.size() != rank) {
    return fmt::format("uses '{}' between indices, but the array's dimension_separator is '{}'",
                       other, sep);
  }
  if (parts.size() != rank) {
    return fmt::format("has {} indices, but the array has {} dimension{}", parts.size(), rank,
                       rank == 1 ? "" : "s");
  }
  for (size_t d = 0; d < parts.size(); ++d) {
    uint64_t index = 0;
    auto [end, ec] = std::from_chars(parts[d].data(), parts[d].data() + parts[d].size(), index);
    if (parts[d].empty() || ec != std::errc() || end != parts[d].data() + parts[d].size()) {
      return fmt::format("index \"{}\" is not a non-negative decimal number", parts[d]);
    }
    if (parts[d].size() > 1 && parts[d][0] == '0') {
      return fmt::format("index \"{}\" has a leading zero; zarr only reads \"{}\"", parts[d],
                         index);
    }
    const uint64_t count = grid.rank() == 0 ? 1 : grid.counts()[d];
    if (index >= count) {
      return fmt::format(
          "lies outside the chunk grid: index {} in dimension {}, which has {} chunk{} "
          "(shape {}, chunks {})",
          index, d, count, count == 1 ? "" : "s", FormatDims(grid.shape()),
          FormatDims(grid.chunks()));
    }
  }
  return "is not a chunk key the reader recognised";
}

// The array a chunk-like key belongs to: the longest prefix with a .zarray whose remainder is
// made of chunk-like components; else the key without its trailing chunk-like components.
std::pair<std::string, const ArrayInfo*> OwnerOf(std::string_view key, const Catalog& catalog) {
  std::string_view path = key;
  std::optional<std::string_view> presumed;
  while (IsChunkLikeComponent(LastComponent(path))) {
    const size_t slash = path.rfind('/');
    path = slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
    if (const ArrayInfo* info = catalog.Find(path)) return {std::string(path), info};
    if (!presumed && !IsChunkLikeComponent(LastComponent(path))) presumed = path;
    if (slash == std::string_view::npos) break;
  }
  return {std::string(presumed.value_or(path)), nullptr};
}

std::string ZarrayKey(std::string_view array) {
  return array.empty() ? std::string(".zarray") : fmt::format("{}/.zarray", array);
}

}  // namespace

void CheckKeys(const ReferenceSet& refs, const Catalog& catalog, Report& report) {
  // One case per array: chunk columns counted as examined (the reader validated their keys).
  std::vector<CaseLog> logs;
  std::unordered_map<std::string, size_t> index;
  auto log_for = [&](const std::string& array) -> CaseLog& {
    auto [it, inserted] = index.try_emplace(array, logs.size());
    if (inserted) logs.push_back(report.NewCase(Check::kKeys, array));
    return logs[it->second];
  };
  for (const ArrayInfo& a : catalog.arrays) log_for(a.path).Examined(a.refs ? a.refs->size() : 0);
  for (const ArrayRefs& a : refs.arrays) {
    if (catalog.Find(a.path())) continue;
    CaseLog& log = log_for(a.path());
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string key = a.KeyPrefix() + a.grid().Key(a.chunk_index(i));
      log.Examined();
      log.Fail(key, fmt::format("{}: reference to array {}, which has no {}", key, a.path(),
                                ZarrayKey(a.path())));
    }
  }
  for (const Entry& e : refs.entries) {
    if (KindOfKey(e.key) != MetadataKind::kNone || !IsChunkLikeComponent(LastComponent(e.key))) {
      continue;
    }
    auto [array, info] = OwnerOf(e.key, catalog);
    CaseLog& log = log_for(array);
    log.Examined();
    if (!info) {
      log.Fail(e.key, fmt::format("{}: reference to array {}, which has no {}", e.key,
                                  array.empty() ? "(root)" : array, ZarrayKey(array)));
    } else if (!info->grid) {
      log.Fail(e.key, fmt::format("{}: chunk of array {}, whose {} is invalid (see metadata)",
                                  e.key, array, ZarrayKey(array)));
    } else {
      const std::string_view suffix = array.empty()
                                          ? std::string_view(e.key)
                                          : std::string_view(e.key).substr(array.size() + 1);
      log.Fail(e.key, fmt::format("{}: chunk key of array {} {}", e.key, array,
                                  DescribeBadSuffix(suffix, *info->grid)));
    }
  }
  for (CaseLog& log : logs) report.Add(std::move(log));
  report.MarkRun(Check::kKeys);
}

}  // namespace kerchunk::verify::internal
