#include "combine/part_view.h"

#include <algorithm>

namespace kerchunk::internal {
namespace {

std::string Dims(const std::vector<std::string>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + dims[i];
  return out + "]";
}

std::string Shape(const std::vector<uint64_t>& v) {
  return fmt::format("[{}]", fmt::join(v, ", "));
}

Result<json::Value> ParseAttrs(const ReferenceSet& part, const std::string& path,
                               PartMetadataCache* cache = nullptr) {
  std::string key = path.empty() ? ".zattrs" : path + "/.zattrs";
  const Entry* e = part.FindEntry(key);
  if (!e) return json::Value::MakeObject();
  if (e->value.kind != EntryValue::Kind::kText && e->value.kind != EntryValue::Kind::kJson) {
    return InvalidArgumentError("\"{}\": expected a JSON document", key);
  }
  KERCHUNK_ASSIGN_OR_RETURN(
      json::Value attrs,
      (cache ? cache->Zattrs(e->value.data) : json::Value::Parse(e->value.data)).Annotate(key));
  if (!attrs.is_object()) return InvalidArgumentError("\"{}\": expected a JSON object", key);
  return attrs;
}

Result<std::vector<std::string>> ReadDims(const json::Value& attrs, const std::string& path) {
  std::vector<std::string> dims;
  const json::Value* v = attrs.Find("_ARRAY_DIMENSIONS");
  if (!v) return dims;
  if (!v->is_array()) {
    return InvalidArgumentError("variable \"{}\": expected _ARRAY_DIMENSIONS to be a list", path);
  }
  for (const auto& d : v->as_array()) {
    if (!d.is_string()) {
      return InvalidArgumentError("variable \"{}\": expected dimension names, got {}", path,
                                  d.Dump());
    }
    dims.push_back(d.as_string());
  }
  return dims;
}

// Values that must agree between parts for a concatenated variable, compared as JSON.
Status SameJson(const PartView& part, const std::string& var, std::string_view what,
                const json::Value& expected, const json::Value& got) {
  if (expected == got) return OkStatus();
  return InvalidArgumentError("{}: variable \"{}\": expected {} {}, got {}", part.label, var, what,
                              expected.Dump(), got.Dump());
}

Status CheckConcatenated(const PartView& part, const VariablePlan& plan, const PartVariable& a,
                         const PartVariable& b) {
  const std::string& var = plan.path;
  if (a.meta.dtype != b.meta.dtype) {
    return InvalidArgumentError("{}: variable \"{}\": expected dtype {}, got {}", part.label, var,
                                a.meta.dtype, b.meta.dtype);
  }
  if (a.dims != b.dims) {
    return InvalidArgumentError("{}: variable \"{}\": expected dimensions {}, got {}", part.label,
                                var, Dims(a.dims), Dims(b.dims));
  }
  KERCHUNK_RETURN_IF_ERROR(SameJson(part, var, "compressor", a.meta.compressor, b.meta.compressor));
  KERCHUNK_RETURN_IF_ERROR(SameJson(part, var, "filters", a.meta.filters, b.meta.filters));
  if (a.meta.order != b.meta.order ||
      a.meta.dimension_separator.value_or('.') != b.meta.dimension_separator.value_or('.')) {
    return InvalidArgumentError("{}: variable \"{}\": order or dimension separator differs",
                                part.label, var);
  }
  if (a.meta.chunks != b.meta.chunks && !plan.rebuildable) {
    // Different chunk extents along the concat dimension cannot share one zarr chunk grid;
    // this is the "chunk size mismatch" Python kerchunk reports for such sets.
    return InvalidArgumentError(
        "{}: variable \"{}\": expected chunks {}, got {}; zarr needs one chunk shape, so these "
        "files cannot be combined without rechunking",
        part.label, var, Shape(a.meta.chunks), Shape(b.meta.chunks));
  }
  for (size_t d = 0; d < a.meta.shape.size(); ++d) {
    if (d != plan.axis && a.meta.shape[d] != b.meta.shape[d]) {
      return InvalidArgumentError(
          "{}: variable \"{}\": expected shape {} outside dimension {}, "
          "got {}",
          part.label, var, Shape(a.meta.shape), a.dims[plan.axis], Shape(b.meta.shape));
    }
  }
  return OkStatus();
}

}  // namespace

std::optional<size_t> PartVariable::Axis(std::string_view dim) const {
  auto it = std::find(dims.begin(), dims.end(), dim);
  if (it == dims.end()) return std::nullopt;
  return static_cast<size_t>(it - dims.begin());
}

const PartVariable* PartView::Find(std::string_view path) const {
  auto it = variables.find(path);
  return it == variables.end() ? nullptr : &it->second;
}

std::string PartLabel(const ReferenceSet& part, size_t index) {
  if (part.urls.size() == 0) return fmt::format("part {}", index);
  return fmt::format("part {} ({})", index, part.urls[0]);
}

Result<json::Value> PartView::GlobalAttrs() const { return ParseAttrs(*refs, "").Annotate(label); }

template <typename T, typename Parse>
Result<T> PartMetadataCache::Find(ByText<T>& map, std::string_view text, Parse parse) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = map.find(text); it != map.end()) return it->second;
  }
  Result<T> parsed = parse(text);  // outside the lock: threads parse different texts at once
  if (parsed.ok()) {
    std::lock_guard lock(mutex_);
    map.emplace(std::string(text), *parsed);
  }
  return parsed;
}

Result<ZarrArrayMeta> PartMetadataCache::Zarray(std::string_view text) {
  return Find(zarrays_, text, [](std::string_view t) { return ZarrArrayMeta::Parse(t); });
}

Result<json::Value> PartMetadataCache::Zattrs(std::string_view text) {
  return Find(zattrs_, text, [](std::string_view t) { return json::Value::Parse(t); });
}

Result<PartView> DescribePart(const ReferenceSet& part, size_t index, PartMetadataCache* cache) {
  PartView view;
  view.index = index;
  view.label = PartLabel(part, index);
  view.refs = &part;
  if (index == 0) KERCHUNK_RETURN_IF_ERROR(view.GlobalAttrs().status());
  for (const Entry& e : part.entries) {
    auto path = ZarrayKeyArrayPath(e.key);
    if (!path) continue;
    PartVariable v;
    v.path = std::string(*path);
    auto meta = cache ? cache->Zarray(e.value.data) : ZarrArrayMeta::Parse(e.value.data);
    if (!meta.ok()) return std::move(meta).status().Annotate(view.label + ": \"" + e.key + "\"");
    v.meta = std::move(*meta);
    KERCHUNK_ASSIGN_OR_RETURN(v.attrs, ParseAttrs(part, v.path, cache).Annotate(view.label));
    KERCHUNK_ASSIGN_OR_RETURN(v.dims, ReadDims(v.attrs, v.path).Annotate(view.label));
    if (!v.dims.empty() && v.dims.size() != v.meta.shape.size()) {
      return InvalidArgumentError("{}: variable \"{}\": {} dimension names for a rank-{} array",
                                  view.label, v.path, v.dims.size(), v.meta.shape.size());
    }
    v.refs = part.FindArray(v.path);
    view.variables.emplace(v.path, std::move(v));
  }
  return view;
}

Result<std::vector<VariablePlan>> PlanVariables(const PartView& first,
                                                const CombineOptions& options) {
  const std::string& dim = options.concat_dim;
  for (const auto& name : options.identical_dims) {
    if (name == dim) {
      return InvalidArgumentError("\"{}\" is the concat dimension and cannot be identical", dim);
    }
  }
  std::vector<VariablePlan> plan;
  for (const auto& [path, v] : first.variables) {
    VariablePlan p;
    p.path = path;
    auto axis = v.Axis(dim);
    bool identical = std::find(options.identical_dims.begin(), options.identical_dims.end(),
                               path) != options.identical_dims.end();
    // The coordinate: named like the dimension and one-dimensional along it (without
    // _ARRAY_DIMENSIONS its name says which dimension it is). A variable that has the name but
    // not the dimension (NetCDF-3 "time" strings of a "report" dimension) is an ordinary one.
    bool coordinate_name = path == dim;
    if (coordinate_name && axis && v.meta.shape.size() != 1) {
      return UnsupportedError("{}: coordinate \"{}\" must be one-dimensional, got dimensions {}",
                              first.label, path, Dims(v.dims));
    }
    if (coordinate_name && v.meta.shape.size() == 1 && (axis || v.dims.empty())) {
      p.role = VariableRole::kCoordinate;
    } else if (axis && !identical) {
      p.role = VariableRole::kConcatenated;
      p.axis = *axis;
    }
    plan.push_back(std::move(p));
  }
  return plan;
}

Status CheckPartMatches(const PartView& first, const PartView& part,
                        const std::vector<VariablePlan>& plan) {
  for (const auto& [path, v] : part.variables) {
    if (!first.Find(path)) {
      return InvalidArgumentError("{}: variable \"{}\" is not in the first part ({})", part.label,
                                  path, first.label);
    }
  }
  for (const VariablePlan& p : plan) {
    const PartVariable* a = first.Find(p.path);
    const PartVariable* b = part.Find(p.path);
    if (!b) {
      return InvalidArgumentError("{}: variable \"{}\" of the first part is missing", part.label,
                                  p.path);
    }
    if (p.role == VariableRole::kFromFirst) continue;
    if (p.role == VariableRole::kCoordinate) {
      if (b->meta.shape.size() != 1 || b->dims != a->dims) {
        return InvalidArgumentError("{}: coordinate \"{}\": expected dimensions {}, got {}",
                                    part.label, p.path, Dims(a->dims), Dims(b->dims));
      }
      continue;
    }
    KERCHUNK_RETURN_IF_ERROR(CheckConcatenated(part, p, *a, *b));
  }
  return OkStatus();
}

}  // namespace kerchunk::internal
