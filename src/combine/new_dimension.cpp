#include "combine/new_dimension.h"

#include <algorithm>
#include <set>

#include "combine/identical_check.h"
#include "combine/overlap.h"
#include "kerchunk/codecs/chunk_reader.h"

namespace kerchunk::internal {
namespace {

struct Group {
  DimensionValue value;
  std::vector<size_t> inputs;  // input positions, in input order
};

Result<std::vector<PartView>> DescribeAll(const std::vector<ReferenceSet>& sets) {
  std::vector<PartView> views;
  for (size_t i = 0; i < sets.size(); ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(PartView view, DescribePart(sets[i], i));
    views.push_back(std::move(view));
  }
  return views;
}

// Inputs grouped by value: numbers in increasing order, strings in order of first appearance
// (the input list is sorted, so usually by file name).
std::vector<Group> GroupByValue(const std::vector<DimensionValue>& values) {
  std::vector<Group> groups;
  for (size_t i = 0; i < values.size(); ++i) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const Group& g) { return g.value == values[i]; });
    if (it == groups.end()) {
      groups.push_back({values[i], {i}});
    } else {
      it->inputs.push_back(i);
    }
  }
  if (!groups.empty() && !groups.front().value.is_string) {
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
      return (a.value.number <=> b.value.number) < 0;
    });
  }
  return groups;
}

// Several inputs with the same value and no dimension left to tell them apart: a complete
// overlap, resolved as options.on_overlap says.
Result<size_t> PickOneOfDuplicates(const std::vector<PartView>& parts, const Group& group,
                                   std::string_view dim, OnOverlap on_overlap,
                                   std::vector<std::string>& warnings) {
  const PartView& first = parts[group.inputs.front()];
  const PartView& second = parts[group.inputs[1]];
  if (on_overlap == OnOverlap::kDefault || on_overlap == OnOverlap::kError) {
    return InvalidArgumentError(
        "{} and {} have the same \"{}\" value {}, so one of them would be lost (duplicate "
        "files?){}; --on-overlap later or earlier keeps one of them anyway",
        first.label, second.label, dim, group.value.Show(), NewDimensionHint(first, second));
  }
  size_t kept = on_overlap == OnOverlap::kEarlier ? group.inputs.front() : group.inputs.back();
  for (size_t i : group.inputs) {
    if (i == kept) continue;
    warnings.push_back(
        fmt::format("{} and {} have the same \"{}\" value {}; the {} input ({}) "
                    "is used",
                    parts[std::min(i, kept)].label, parts[std::max(i, kept)].label, dim,
                    group.value.Show(), i < kept ? "later" : "earlier", parts[kept].label));
  }
  return kept;
}

bool IsDimensionCoordinate(const PartVariable& v) {
  return v.dims.size() == 1 && v.dims[0] == v.path;
}

Status CheckSameVariables(const PartView& first, const PartView& part) {
  for (const auto& [path, v] : first.variables) {
    if (!part.Find(path)) {
      return InvalidArgumentError("{}: variable \"{}\" of the first part ({}) is missing",
                                  part.label, path, first.label);
    }
  }
  return OkStatus();
}

// The variables that gain the new dimension (see combine.h): all with dimension names except
// dimension coordinates (checked equal in every group), identical_dims, and with
// check_identical those equal in every group.
Result<std::set<std::string>> VariablesToExpand(const std::vector<PartView>& groups,
                                                std::string_view dim, const CombineOptions& options,
                                                const UrlToPath& url_to_path) {
  const PartView& first = groups.front();
  for (const PartView& g : groups) KERCHUNK_RETURN_IF_ERROR(CheckSameVariables(first, g));
  auto identical_everywhere = [&](const std::string& path) -> Status {
    for (size_t g = 1; g < groups.size(); ++g) {
      KERCHUNK_RETURN_IF_ERROR(CheckIdenticalVariable(first, groups[g], path, url_to_path));
    }
    return OkStatus();
  };
  std::set<std::string> expand;
  for (const auto& [path, v] : first.variables) {
    if (path == dim) {
      return InvalidArgumentError("{}: a variable is named \"{}\" like the new dimension",
                                  first.label, dim);
    }
    bool named_identical = std::find(options.identical_dims.begin(), options.identical_dims.end(),
                                     path) != options.identical_dims.end();
    if (!v.attrs.Find("_ARRAY_DIMENSIONS")) continue;  // no dimension names to extend
    if (IsDimensionCoordinate(v)) {
      Status same = identical_everywhere(path);
      if (same.code() == StatusCode::kInvalidArgument) {
        return InvalidArgumentError(
            "{}; the coordinate of \"{}\" must be the same for every \"{}\" value (files that "
            "also split along \"{}\" need a --concat-dim for it after --concat-dim {})",
            same.message(), path, dim, path, dim);
      }
      KERCHUNK_RETURN_IF_ERROR(same);  // a chunk that cannot be read
      continue;
    }
    if (named_identical) {
      if (options.check_identical) KERCHUNK_RETURN_IF_ERROR(identical_everywhere(path));
      continue;
    }
    // With one group there is nothing to compare: every variable gains the dimension, as
    // it does in the output of a shard that holds one member.
    if (options.check_identical && groups.size() > 1) {
      Status same = identical_everywhere(path);
      if (same.ok()) continue;
      if (same.code() != StatusCode::kInvalidArgument) return same;
    }
    expand.insert(path);
  }
  return expand;
}

std::string Key(const std::string& path, std::string_view name) {
  return path.empty() ? std::string(name) : path + "/" + std::string(name);
}

Result<json::Value> ParseEntry(const ReferenceSet& refs, const std::string& key) {
  const Entry* e = refs.FindEntry(key);
  if (!e) return json::Value::MakeObject();
  return json::Value::Parse(e->value.data).Annotate(key);
}

json::Value Prepend(const json::Value* list, json::Value first) {
  json::Value::Array items{std::move(first)};
  if (list && list->is_array()) {
    items.insert(items.end(), list->as_array().begin(), list->as_array().end());
  }
  return json::Value::MakeArray(std::move(items));
}

// Gives variable `path` the leading dimension `dim` of length 1, chunk extent 1. Its linear
// chunk indexes stay as they are (a leading extent of one chunk changes no index).
Status ExpandVariable(ReferenceSet& refs, const std::string& path, const std::string& dim) {
  KERCHUNK_ASSIGN_OR_RETURN(json::Value zarray, ParseEntry(refs, Key(path, ".zarray")));
  zarray.Set("shape", Prepend(zarray.Find("shape"), json::Value::Int(1)));
  zarray.Set("chunks", Prepend(zarray.Find("chunks"), json::Value::Int(1)));
  KERCHUNK_ASSIGN_OR_RETURN(ZarrArrayMeta meta, ZarrArrayMeta::Parse(zarray.Dump()));
  refs.SetText(Key(path, ".zarray"), meta.Dump());
  KERCHUNK_ASSIGN_OR_RETURN(json::Value zattrs, ParseEntry(refs, Key(path, ".zattrs")));
  zattrs.Set("_ARRAY_DIMENSIONS",
             Prepend(zattrs.Find("_ARRAY_DIMENSIONS"), json::Value::String(dim)));
  refs.SetText(Key(path, ".zattrs"), zattrs.Dump());
  if (ArrayRefs* array = refs.FindArray(path)) {
    KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, meta.Grid());
    array->set_grid(std::move(grid));
  }
  return OkStatus();
}

// Every input's value along `dim`, from options.coordinates.
Result<std::vector<DimensionValue>> ValuesOf(const std::vector<ReferenceSet>& inputs,
                                             const std::string& dim,
                                             const CombineOptions& options) {
  auto source = options.coordinates.find(dim);
  if (source == options.coordinates.end()) {
    return InvalidArgumentError(
        "no variable of {} has the dimension \"{}\"; to concatenate along a new dimension, say "
        "where its values come from: --coord {}=attr:NAME, vattr:VAR:NAME, path:REGEX or index",
        PartLabel(inputs.front(), 0), dim, dim);
  }
  if (source->second.kind == CoordinateSource::Kind::kData) {
    return InvalidArgumentError(
        "--coord {}=data:{}: \"{}\" is not a dimension of the files; data: takes the values of "
        "a dimension they have",
        dim, source->second.variable, dim);
  }
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<PartView> parts, DescribeAll(inputs));
  return NewDimensionValues(parts, dim, source->second);
}

// One reference set per group: its inputs combined along the remaining dimensions (dims after
// the first), or with none left the one input that on_overlap keeps.
Result<std::vector<ReferenceSet>> CombineEachGroup(std::vector<ReferenceSet>& inputs,
                                                   const std::vector<Group>& groups,
                                                   const std::vector<std::string>& dims,
                                                   const CombineOptions& options,
                                                   std::vector<std::string>& warnings) {
  CombineOptions inner = options;
  if (dims.size() > 1) {
    inner.outer_dims.assign(dims.begin() + 1, dims.end() - 1);
    inner.concat_dim = dims.back();
  }
  std::vector<ReferenceSet> combined;
  for (const Group& g : groups) {
    if (dims.size() > 1) {
      std::vector<ReferenceSet> members;
      for (size_t i : g.inputs) members.push_back(std::move(inputs[i]));
      KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet r,
                                CombineReferenceSets(std::move(members), inner, &warnings));
      combined.push_back(std::move(r));
      continue;
    }
    size_t kept = g.inputs.front();
    if (g.inputs.size() > 1) {
      KERCHUNK_ASSIGN_OR_RETURN(std::vector<PartView> parts, DescribeAll(inputs));
      KERCHUNK_ASSIGN_OR_RETURN(
          kept, PickOneOfDuplicates(parts, g, dims.front(), options.on_overlap, warnings));
    }
    combined.push_back(std::move(inputs[kept]));
  }
  return combined;
}

// Gives the varying variables of every group the leading dimension `dim` and the group its
// position as the value of `dim`.
Status ExpandGroups(std::vector<ReferenceSet>& groups, const std::string& dim,
                    const CombineOptions& options, const UrlToPath& url_to_path) {
  std::set<std::string> expand;
  {
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<PartView> views, DescribeAll(groups));
    KERCHUNK_ASSIGN_OR_RETURN(expand, VariablesToExpand(views, dim, options, url_to_path));
  }
  if (expand.empty()) {
    return InvalidArgumentError("new dimension \"{}\": no variable varies between the files", dim);
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    for (const std::string& path : expand) {
      KERCHUNK_RETURN_IF_ERROR(ExpandVariable(groups[g], path, dim));
    }
    DimensionValue position;
    position.number = CoordinateValue::Int(static_cast<int64_t>(g));
    KERCHUNK_RETURN_IF_ERROR(SetDimensionCoordinate(groups[g], dim, {position}));
  }
  return OkStatus();
}

}  // namespace

bool NeedsNewDimension(const PartView& first, const CombineOptions& options) {
  if (!options.outer_dims.empty()) return true;
  for (const auto& [path, v] : first.variables) {
    if (v.Axis(options.concat_dim) || path == options.concat_dim) return false;
  }
  return true;
}

Result<ReferenceSet> CombineAlongNewDimension(std::vector<ReferenceSet> inputs,
                                              const CombineOptions& options,
                                              std::vector<std::string>& warnings) {
  std::vector<std::string> dims = options.outer_dims;
  dims.push_back(options.concat_dim);
  const std::string dim = dims.front();
  if (dims.size() > 1) {
    KERCHUNK_ASSIGN_OR_RETURN(PartView first, DescribePart(inputs.front(), 0));
    if (!NeedsNewDimension(first, CombineOptions{.concat_dim = dim})) {
      return UnsupportedError(
          "--concat-dim {}: the files have this dimension; only the last --concat-dim may be "
          "one they have",
          dim);
    }
  }
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<DimensionValue> values, ValuesOf(inputs, dim, options));
  std::vector<Group> groups = GroupByValue(values);
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<ReferenceSet> combined,
                            CombineEachGroup(inputs, groups, dims, options, warnings));
  UrlToPath url_to_path = options.url_to_path ? options.url_to_path : codecs::DefaultUrlToPath;
  KERCHUNK_RETURN_IF_ERROR(ExpandGroups(combined, dim, options, url_to_path));
  // Each group now has `dim` with coordinate value = its position: the existing-dimension
  // combine places and renumbers them; then the coordinate gets the real values.
  CombineOptions along;
  along.concat_dim = dim;
  along.on_attribute_conflict = options.on_attribute_conflict;
  along.url_to_path = url_to_path;
  along.threads = options.threads;
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet out,
                            CombineReferenceSets(std::move(combined), along, &warnings));
  std::vector<DimensionValue> group_values;
  for (const Group& g : groups) group_values.push_back(g.value);
  KERCHUNK_RETURN_IF_ERROR(SetDimensionCoordinate(out, dim, group_values));
  return out;
}

}  // namespace kerchunk::internal
