// What xarray (engine "zarr") needs to open each group as a Dataset, beyond what zarr needs:
// every array names its dimensions in _ARRAY_DIMENSIONS, one name per dimension, a name has one
// length within a group, and a multi-dimensional array is not named like one of its dimensions.
// zarr itself reads an index that breaks these rules, so by default they are warnings.
#include <fmt/format.h>

#include <map>

#include "kerchunk/json/json_value.h"
#include "verify/checks.h"

namespace kerchunk::verify::internal {
namespace {

using json::Value;

std::string AttrsKey(std::string_view array) {
  return array.empty() ? std::string(".zattrs") : fmt::format("{}/.zattrs", array);
}

std::string_view LastName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The dimension names of an array, or the reason xarray cannot get them.
Result<std::vector<std::string>> DimensionNames(const ReferenceSet& refs, const ArrayInfo& info) {
  const std::string key = AttrsKey(info.path);
  const Entry* entry = refs.FindEntry(key);
  std::optional<std::string_view> text = entry ? MetadataText(*entry) : std::nullopt;
  Result<Value> attrs = text ? Value::Parse(*text) : Result<Value>(NotFoundError("missing"));
  const Value* names =
      attrs.ok() && attrs->is_object() ? attrs->Find("_ARRAY_DIMENSIONS") : nullptr;
  if (!names) {
    return NotFoundError(
        "{} has no _ARRAY_DIMENSIONS, which xarray needs to name the "
        "dimensions",
        entry ? key : info.path + " (no .zattrs)");
  }
  const size_t rank = info.meta->shape.size();
  std::vector<std::string> out;
  if (names->is_array()) {
    for (const Value& n : names->as_array()) {
      if (n.is_string()) out.push_back(n.as_string());
    }
  }
  if (!names->is_array() || out.size() != names->as_array().size() || out.size() != rank) {
    return InvalidArgumentError(
        "{}: _ARRAY_DIMENSIONS {} should be a list of {} dimension "
        "name{} (the array's rank)",
        key, names->Dump(), rank, rank == 1 ? "" : "s");
  }
  return out;
}

}  // namespace

void CheckXarray(const ReferenceSet& refs, const Catalog& catalog, bool strict, Report& report) {
  // (group, dimension) -> (length, first array using it)
  std::map<std::pair<std::string, std::string>, std::pair<uint64_t, std::string>> seen;
  for (const ArrayInfo& info : catalog.arrays) {
    if (!info.meta) continue;  // the metadata check reports it
    CaseLog log = report.NewCase(Check::kXarray, info.path);
    log.Examined();
    const std::string key = AttrsKey(info.path);
    Result<std::vector<std::string>> names = DimensionNames(refs, info);
    if (!names.ok()) {
      log.Fail(key, names.status().message());
      report.Add(std::move(log));
      continue;
    }
    const std::string group(NodePath(info.path));
    bool named_like_dimension = false;
    for (size_t d = 0; d < names->size(); ++d) {
      const std::string& name = (*names)[d];
      const uint64_t length = info.meta->shape[d];
      if (names->size() > 1 && name == LastName(info.path) && !named_like_dimension) {
        named_like_dimension = true;
        log.Fail(key, fmt::format("{}: the {}-dimensional array is named like its dimension "
                                  "\"{}\"; xarray refuses such a variable",
                                  key, names->size(), name));
      }
      auto [it, inserted] = seen.try_emplace({group, name}, length, info.path);
      if (!inserted && it->second.first != length) {
        const bool same = it->second.second == info.path;
        log.Fail(key, fmt::format("{}: dimension \"{}\" has length {} here but {} {}; xarray "
                                  "cannot open the group",
                                  key, name, length, it->second.first,
                                  same ? "in another dimension of the same array"
                                       : "in " + it->second.second));
      }
    }
    report.Add(std::move(log));
  }
  report.SetAdvisory(Check::kXarray, !strict);
  report.MarkRun(Check::kXarray);
}

}  // namespace kerchunk::verify::internal
