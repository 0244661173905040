// CombineReferenceSets: validate the parts, place them along the concat dimension, then build
// the output from the first part's entries with concatenated variables and the coordinate
// replaced (see combine.h for the semantics).
#include "kerchunk/combine/combine.h"

#include <algorithm>
#include <map>
#include <optional>

#include "combine/chunk_merge.h"
#include "combine/coordinate.h"
#include "combine/identical_check.h"
#include "combine/new_dimension.h"
#include "combine/part_view.h"
#include "combine/placement.h"
#include "combine/string_coordinate.h"
#include "combine/time_bounds.h"
#include "combine/value_attributes.h"
#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/util/base64.h"
#include "kerchunk/util/parallel.h"

namespace kerchunk {
namespace {

using internal::PartView;
using internal::Placement;
using internal::VariablePlan;
using internal::VariableRole;

struct Plan {
  std::vector<VariablePlan> variables;
  const VariablePlan* coordinate = nullptr;
  /// The coordinate's bounds variable (time_bnds), converted with it; nullptr when none.
  const VariablePlan* bounds = nullptr;
  /// The variable that places the parts instead of the coordinate (--coord DIM=data:VAR); its
  /// combined values are stored inline, as the coordinate's are. nullptr when none.
  const VariablePlan* data = nullptr;

  const VariablePlan* Find(std::string_view path) const {
    for (const auto& v : variables) {
      if (v.path == path) return &v;
    }
    return nullptr;
  }
};

// Every part's variables, parsed on `threads` threads (thousands of parts, each with its own
// .zarray and .zattrs documents); the first error in part order.
Result<std::vector<PartView>> DescribeParts(const std::vector<ReferenceSet>& inputs,
                                            unsigned threads) {
  std::vector<std::optional<Result<PartView>>> described(inputs.size());
  internal::PartMetadataCache cache;
  ParallelFor(inputs.size(), threads, [&](size_t i) {
    described[i].emplace(internal::DescribePart(inputs[i], i, &cache));
  });
  std::vector<PartView> parts;
  parts.reserve(inputs.size());
  for (auto& view : described) {
    KERCHUNK_ASSIGN_OR_RETURN(PartView part, std::move(*view));
    parts.push_back(std::move(part));
  }
  return parts;
}

// Keys under a concatenated variable or the coordinate other than its metadata would be copied
// to the wrong place; they only arise from chunk keys outside the grid.
Status CheckNoStrayKeys(const PartView& part, const Plan& plan) {
  for (const Entry& e : part.refs->entries) {
    auto slash = e.key.rfind('/');
    if (slash == std::string::npos) continue;
    std::string_view name = std::string_view(e.key).substr(slash + 1);
    if (name == ".zarray" || name == ".zattrs" || name == ".zgroup") continue;
    const VariablePlan* v = plan.Find(std::string_view(e.key).substr(0, slash));
    if (v && v->role != VariableRole::kFromFirst) {
      return UnsupportedError("{}: key \"{}\" is not a chunk of variable \"{}\"'s grid", part.label,
                              e.key, v->path);
    }
  }
  return OkStatus();
}

Result<std::vector<std::vector<CoordinateValue>>> ReadAllCoordinates(
    const std::vector<PartView>& parts, const std::string& path, const CombineOptions& options,
    const UrlToPath& url_to_path, std::vector<std::string>& warnings) {
  std::vector<std::vector<CoordinateValue>> values(parts.size());
  std::vector<Status> errors(parts.size());
  std::vector<std::string> part_warnings(parts.size());
  const internal::PartVariable& first = *parts[0].Find(path);
  ParallelFor(parts.size(), ResolveThreads(options.threads), [&](size_t p) {
    const internal::PartVariable& coordinate = *parts[p].Find(path);
    auto read = internal::ReadCoordinateValues(parts[p], coordinate, url_to_path);
    if (!read.ok()) {
      errors[p] = read.status();
      return;
    }
    values[p] = std::move(*read);
    errors[p] =
        internal::ConvertToFirstUnits(first, parts[p], coordinate, values[p], part_warnings[p]);
  });
  for (auto& s : errors) KERCHUNK_RETURN_IF_ERROR(s);
  for (auto& w : part_warnings) {
    if (!w.empty()) warnings.push_back(std::move(w));
  }
  return values;
}

// Each part's length along the dimension from its concatenated variables, which must agree
// with each other (and with the coordinate, when there is one).
Result<std::vector<uint64_t>> PartLengths(const std::vector<PartView>& parts, const Plan& plan,
                                          const Placement* by_coordinate, const std::string& dim) {
  std::vector<uint64_t> lengths(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    std::optional<uint64_t> length;
    if (by_coordinate) length = by_coordinate->length[p];
    std::string source = by_coordinate ? "coordinate \"" + dim + "\"" : "";
    for (const VariablePlan& v : plan.variables) {
      if (v.role != VariableRole::kConcatenated) continue;
      uint64_t n = parts[p].Find(v.path)->meta.shape[v.axis];
      if (length && *length != n) {
        return InvalidArgumentError("{}: variable \"{}\" has {} steps along \"{}\", but {} has {}",
                                    parts[p].label, v.path, n, dim, source, *length);
      }
      length = n;
      if (source.empty()) source = "variable \"" + v.path + "\"";
    }
    lengths[p] = length.value_or(0);
  }
  return lengths;
}

// The variable whose values place the parts instead of the coordinate's (--coord DIM=data:VAR),
// or nullptr.
const std::string* DataSource(const CombineOptions& options) {
  auto it = options.coordinates.find(options.concat_dim);
  if (it == options.coordinates.end() || it->second.kind != CoordinateSource::Kind::kData) {
    return nullptr;
  }
  return &it->second.variable;
}

// For a dimension the parts have, only data:VAR says anything, and VAR must be a
// one-dimensional variable along it.
Status CheckCoordinateSource(const PartView& first, const CombineOptions& options) {
  auto it = options.coordinates.find(options.concat_dim);
  if (it == options.coordinates.end()) return OkStatus();
  const std::string& dim = options.concat_dim;
  if (it->second.kind != CoordinateSource::Kind::kData) {
    return InvalidArgumentError(
        "--coord {}: the files have the dimension \"{}\"; only data:VAR applies to it", dim, dim);
  }
  const internal::PartVariable* v = first.Find(it->second.variable);
  if (!v || v->dims.size() != 1 || v->dims[0] != dim) {
    return InvalidArgumentError(
        "--coord {}=data:{}: {} has no one-dimensional variable \"{}\" "
        "along \"{}\"",
        dim, it->second.variable, first.label, it->second.variable, dim);
  }
  return OkStatus();
}

Result<Placement> PlaceParts(const std::vector<PartView>& parts, const Plan& plan,
                             const CombineOptions& options, const UrlToPath& url_to_path,
                             std::vector<std::string>& warnings) {
  const std::string& dim = options.concat_dim;
  const std::string* data = DataSource(options);
  if (!plan.coordinate && !data) {
    warnings.push_back(
        fmt::format("no coordinate variable \"{}\": parts are concatenated in input order", dim));
    KERCHUNK_ASSIGN_OR_RETURN(auto lengths, PartLengths(parts, plan, nullptr, dim));
    return internal::PlaceInInputOrder(lengths);
  }
  KERCHUNK_ASSIGN_OR_RETURN(
      auto values, ReadAllCoordinates(parts, data ? *data : dim, options, url_to_path, warnings));
  KERCHUNK_ASSIGN_OR_RETURN(
      Placement placement,
      internal::PlaceByCoordinate(parts, std::move(values), dim, options.on_overlap, warnings));
  KERCHUNK_RETURN_IF_ERROR(PartLengths(parts, plan, &placement, dim));
  return placement;
}

// Value attributes of the variables that grow along the dimension (the coordinate's units and
// calendar are converted, not compared) against the first part's: an error for the first
// difference, or with OnAttributeConflict::kFirst one warning per part listing them all.
Status CheckValueAttributes(const PartView& first, const PartView& part, const Plan& plan,
                            const CombineOptions& options, std::vector<std::string>& warnings) {
  std::vector<internal::AttributeConflict> conflicts;
  for (const VariablePlan& v : plan.variables) {
    if (v.role == VariableRole::kFromFirst) continue;
    std::vector<std::string_view> skip;
    if (v.role == VariableRole::kCoordinate || &v == plan.bounds) skip = {"units", "calendar"};
    auto found = internal::FindAttributeConflicts(first, part, v.path, skip);
    if (found.empty()) continue;
    if (options.on_attribute_conflict == OnAttributeConflict::kError) {
      return internal::AttributeConflictError(first, part, found.front());
    }
    conflicts.insert(conflicts.end(), found.begin(), found.end());
  }
  if (!conflicts.empty()) warnings.push_back(internal::AttributeConflictWarning(part, conflicts));
  return OkStatus();
}

Status CheckParts(const std::vector<PartView>& parts, const Plan& plan,
                  const CombineOptions& options, const UrlToPath& url_to_path,
                  std::vector<std::string>& warnings) {
  for (const PartView& part : parts) {
    if (part.index > 0) {
      KERCHUNK_RETURN_IF_ERROR(internal::CheckPartMatches(parts[0], part, plan.variables));
      KERCHUNK_RETURN_IF_ERROR(CheckValueAttributes(parts[0], part, plan, options, warnings));
    }
    KERCHUNK_RETURN_IF_ERROR(CheckNoStrayKeys(part, plan));
  }
  if (!options.check_identical) return OkStatus();
  for (const VariablePlan& v : plan.variables) {
    if (v.role != VariableRole::kFromFirst) continue;
    for (size_t p = 1; p < parts.size(); ++p) {
      KERCHUNK_RETURN_IF_ERROR(
          internal::CheckIdenticalVariable(parts[0], parts[p], v.path, url_to_path));
    }
  }
  return OkStatus();
}

std::string ZarrayKey(const std::string& path) {
  return path.empty() ? ".zarray" : path + "/.zarray";
}

// A long coordinate is stored compressed, as MultiZarrToZarr does (zstd above 100 values): a
// 90-year daily series is 33,000 values, which raw would be most of a packed index. A delta
// filter first when decoding reproduces the values bit for bit (regular steps then cost almost
// nothing); numcodecs' Delta decodes with a sequential cumsum, as ours does, in either byte
// order (NetCDF-3 coordinates are big-endian: 33,870 daily values of an 11-file series pack to
// 2.6 KB with it, 10.9 KB without). Level 6: level 9 took a quarter of that series' scan
// without the filter, and packed it larger (12.0 KB).
constexpr size_t kCompressCoordinateAbove = 100;

struct StoredCoordinate {
  json::Value compressor;
  json::Value filters;
  std::string bytes;
};

Result<StoredCoordinate> CompressCoordinate(const std::string& dtype, const std::string& raw) {
  json::Value zstd = json::Value::MakeObject();
  zstd.Set("id", json::Value::String("zstd"));
  zstd.Set("level", json::Value::Int(6));
  std::vector<json::Value> candidates;
  if (dtype.size() > 1 && (dtype[0] == '<' || dtype[0] == '>')) {
    json::Value delta = json::Value::MakeObject();
    delta.Set("id", json::Value::String("delta"));
    delta.Set("dtype", json::Value::String(dtype));
    candidates.push_back(json::Value::MakeArray({std::move(delta)}));
  }
  candidates.push_back(json::Value());
  for (const json::Value& filters : candidates) {
    Result<codecs::Pipeline> pipeline = codecs::Pipeline::FromConfigs(zstd, filters, dtype);
    if (!pipeline.ok()) continue;
    Result<std::string> encoded = pipeline->Encode(raw);
    if (!encoded.ok()) continue;
    Result<std::string> decoded = pipeline->Decode(*encoded, raw.size());
    if (decoded.ok() && *decoded == raw) return StoredCoordinate{zstd, filters, *encoded};
  }
  return StoredCoordinate{json::Value(), json::Value(), raw};
}

// An array of combined values (the coordinate, converted bounds) as one inline chunk, with its
// .zarray (`meta` with the combined shape) describing exactly that.
Result<ArrayRefs> BuildInline(const std::string& path, ZarrArrayMeta meta,
                              const std::vector<CoordinateValue>& values, ReferenceSet& out) {
  internal::EncodedCoordinate encoded = internal::EncodeCoordinate(meta.dtype, values);
  meta.chunks = meta.shape;
  for (uint64_t& c : meta.chunks) c = std::max<uint64_t>(c, 1);
  StoredCoordinate stored{json::Value(), json::Value(), std::move(encoded.bytes)};
  if (values.size() > kCompressCoordinateAbove) {
    KERCHUNK_ASSIGN_OR_RETURN(stored, CompressCoordinate(encoded.dtype, stored.bytes));
  }
  meta.compressor = stored.compressor;
  meta.filters = stored.filters;
  meta.dtype = encoded.dtype;
  meta.dtype_json = json::Value::String(encoded.dtype);
  out.SetText(ZarrayKey(path), meta.Dump());
  KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, meta.Grid());
  ArrayRefs refs(path, std::move(grid));
  if (!values.empty()) refs.AddInline(0, stored.bytes, /*base64=*/true);
  return refs;
}

Result<ArrayRefs> BuildCoordinate(const PartView& first, const VariablePlan& v,
                                  const Placement& placement, ReferenceSet& out) {
  ZarrArrayMeta meta = first.Find(v.path)->meta;
  meta.shape = {placement.total};
  return BuildInline(v.path, std::move(meta), placement.values, out);
}

Result<internal::Concatenation> PrepareConcatenated(const std::vector<PartView>& parts,
                                                    const VariablePlan& v,
                                                    const Placement& placement,
                                                    internal::UrlRemapper& urls, unsigned threads,
                                                    ReferenceSet& out) {
  ZarrArrayMeta meta = parts[0].Find(v.path)->meta;
  meta.shape[v.axis] = placement.total;
  out.SetText(ZarrayKey(v.path), meta.Dump());
  KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, meta.Grid());
  return internal::Concatenation::Prepare(parts, v, placement, std::move(grid), urls, threads);
}

// Builds every piece of every concatenation on `threads` threads.
Status BuildConcatenations(std::vector<internal::Concatenation>& concatenations,
                           const std::vector<std::string>& paths, unsigned threads,
                           std::map<std::string, ArrayRefs, std::less<>>& built) {
  std::vector<std::pair<size_t, size_t>> tasks;  // (concatenation, piece)
  for (size_t c = 0; c < concatenations.size(); ++c) {
    for (size_t k = 0; k < concatenations[c].pieces(); ++k) tasks.emplace_back(c, k);
  }
  ParallelFor(tasks.size(), threads, [&](size_t t) {
    auto [c, k] = tasks[t];
    concatenations[c].Build(k);
  });
  for (size_t c = 0; c < concatenations.size(); ++c) {
    KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs refs, std::move(concatenations[c]).Finish());
    built.emplace(paths[c], std::move(refs));
  }
  return OkStatus();
}

// `bounds`: the converted values of plan.bounds, or nullptr when its references are kept.
Result<ReferenceSet> BuildOutput(std::vector<ReferenceSet>& inputs,
                                 const std::vector<PartView>& parts, const Plan& plan,
                                 const Placement& placement,
                                 const std::vector<CoordinateValue>* bounds, unsigned threads) {
  ReferenceSet out;
  out.urls = inputs[0].urls;  // same ids for the first part's references
  out.entries = inputs[0].entries;
  internal::UrlRemapper urls(out.urls, parts);
  std::map<std::string, ArrayRefs, std::less<>> built;
  // Concatenations are prepared here, in plan order, so that URL ids are given out in the order
  // of the output references whatever the thread count; they are built after the loop.
  std::vector<internal::Concatenation> concatenations;
  std::vector<std::string> concatenated_paths;
  for (const VariablePlan& v : plan.variables) {
    if (v.role == VariableRole::kCoordinate) {
      KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs refs, BuildCoordinate(parts[0], v, placement, out));
      built.emplace(v.path, std::move(refs));
    } else if (&v == plan.data) {
      ZarrArrayMeta meta = parts[0].Find(v.path)->meta;
      meta.shape = {placement.total};
      KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs refs,
                                BuildInline(v.path, std::move(meta), placement.values, out));
      built.emplace(v.path, std::move(refs));
    } else if (&v == plan.bounds && bounds) {
      ZarrArrayMeta meta = parts[0].Find(v.path)->meta;
      meta.shape[0] = placement.total;
      KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs refs, BuildInline(v.path, std::move(meta), *bounds, out));
      built.emplace(v.path, std::move(refs));
    } else if (v.role == VariableRole::kConcatenated) {
      KERCHUNK_ASSIGN_OR_RETURN(internal::Concatenation c,
                                PrepareConcatenated(parts, v, placement, urls, threads, out));
      concatenations.push_back(std::move(c));
      concatenated_paths.push_back(v.path);
    }
  }
  KERCHUNK_RETURN_IF_ERROR(BuildConcatenations(concatenations, concatenated_paths, threads, built));
  // Arrays in the first part's order; variables taken from it keep their references as they
  // are (its URL ids are unchanged).
  for (ArrayRefs& a : inputs[0].arrays) {
    auto it = built.find(a.path());
    if (it == built.end()) {
      out.arrays.push_back(std::move(a));
    } else {
      out.arrays.push_back(std::move(it->second));
      built.erase(it);
    }
  }
  for (auto& [path, refs] : built) out.arrays.push_back(std::move(refs));
  return out;
}

// With data:VAR the coordinate holds VAR's values, so it takes VAR's units and calendar too.
Status TakeTimeAttributes(ReferenceSet& out, const PartView& first, const std::string& data,
                          const std::string& coordinate) {
  const json::Value& from = first.Find(data)->attrs;
  json::Value attrs = first.Find(coordinate)->attrs;
  for (std::string_view name : {"units", "calendar"}) {
    if (const json::Value* v = from.Find(name)) attrs.Set(name, *v);
  }
  out.SetText(coordinate + "/.zattrs", attrs.Dump());
  return OkStatus();
}

}  // namespace

Result<ReferenceSet> CombineReferenceSets(std::vector<ReferenceSet> inputs,
                                          const CombineOptions& options_in,
                                          std::vector<std::string>* warnings_out) {
  if (inputs.empty()) return InvalidArgumentError("combine: no reference sets to combine");
  CombineOptions options = options_in;
  if (options.concat_dim.empty()) options.concat_dim = "time";
  UrlToPath url_to_path = options.url_to_path ? options.url_to_path : codecs::DefaultUrlToPath;
  std::vector<std::string> warnings;

  KERCHUNK_ASSIGN_OR_RETURN(std::vector<PartView> parts,
                            DescribeParts(inputs, ResolveThreads(options.threads)));
  if (internal::NeedsNewDimension(parts[0], options)) {
    parts.clear();
    KERCHUNK_ASSIGN_OR_RETURN(
        ReferenceSet out, internal::CombineAlongNewDimension(std::move(inputs), options, warnings));
    if (warnings_out) warnings_out->insert(warnings_out->end(), warnings.begin(), warnings.end());
    return out;
  }
  if (internal::HasStringCoordinate(parts[0], options.concat_dim)) {
    parts.clear();
    KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet out, internal::CombineAlongStringCoordinate(
                                                    std::move(inputs), options, warnings));
    if (warnings_out) warnings_out->insert(warnings_out->end(), warnings.begin(), warnings.end());
    return out;
  }
  KERCHUNK_RETURN_IF_ERROR(CheckCoordinateSource(parts[0], options));
  Plan plan;
  KERCHUNK_ASSIGN_OR_RETURN(plan.variables, internal::PlanVariables(parts[0], options));
  bool any_concatenated = false;
  for (const VariablePlan& v : plan.variables) {
    if (v.role == VariableRole::kCoordinate) plan.coordinate = &v;
    any_concatenated |= v.role != VariableRole::kFromFirst;
  }
  if (plan.coordinate) {
    plan.bounds = internal::FindBoundsPlan(parts[0], plan.coordinate->path, plan.variables);
    for (VariablePlan& v : plan.variables) v.rebuildable = &v == plan.bounds;
  }
  if (const std::string* data = DataSource(options)) {
    for (VariablePlan& v : plan.variables) {
      if (v.path != *data) continue;
      v.rebuildable = true;
      plan.data = &v;
    }
  }
  if (!any_concatenated) {
    return InvalidArgumentError("combine: no variable of {} has the dimension \"{}\"",
                                parts[0].label, options.concat_dim);
  }
  for (const std::string& name : options.identical_dims) {
    if (!plan.Find(name)) warnings.push_back("identical dimension \"" + name + "\" is no variable");
  }
  KERCHUNK_RETURN_IF_ERROR(CheckParts(parts, plan, options, url_to_path, warnings));
  KERCHUNK_ASSIGN_OR_RETURN(Placement placement,
                            PlaceParts(parts, plan, options, url_to_path, warnings));
  std::optional<std::vector<CoordinateValue>> bounds;
  if (plan.bounds) {
    KERCHUNK_ASSIGN_OR_RETURN(
        bounds, internal::ConvertBounds(parts, *plan.bounds, plan.coordinate->path, placement,
                                        options, url_to_path, warnings));
  }
  for (const VariablePlan& v : plan.variables) {
    if (v.role != VariableRole::kConcatenated || (&v == plan.bounds && bounds)) continue;
    if (&v == plan.data) continue;
    KERCHUNK_RETURN_IF_ERROR(internal::CheckChunkAlignment(
        parts, placement, v.path, options.concat_dim, parts[0].Find(v.path)->meta.chunks[v.axis]));
  }
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet out,
                            BuildOutput(inputs, parts, plan, placement, bounds ? &*bounds : nullptr,
                                        ResolveThreads(options.threads)));
  if (const std::string* data = DataSource(options); data && plan.coordinate) {
    KERCHUNK_RETURN_IF_ERROR(TakeTimeAttributes(out, parts[0], *data, plan.coordinate->path));
  }
  if (warnings_out) {
    warnings_out->insert(warnings_out->end(), warnings.begin(), warnings.end());
  }
  return out;
}

}  // namespace kerchunk
