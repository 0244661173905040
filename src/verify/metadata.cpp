// The metadata checks: every .zarray, .zattrs, .zgroup and .zmetadata (metadata), what xarray
// needs to open the groups (xarray), and the catalog of arrays the later checks use.
#include "verify/metadata.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <vector>

#include "kerchunk/codecs/codec.h"
#include "kerchunk/codecs/object_codecs.h"
#include "kerchunk/json/json_value.h"
#include "verify/checks.h"

namespace kerchunk::verify::internal {

std::optional<std::string_view> MetadataText(const Entry& entry) {
  switch (entry.value.kind) {
    case EntryValue::Kind::kText:
    case EntryValue::Kind::kJson:
    case EntryValue::Kind::kBase64:
      return std::string_view(entry.value.data);
    case EntryValue::Kind::kRange:
    case EntryValue::Kind::kWholeFile:
      return std::nullopt;
  }
  return std::nullopt;
}

MetadataKind KindOfKey(std::string_view key) {
  const size_t slash = key.rfind('/');
  const std::string_view last = slash == std::string_view::npos ? key : key.substr(slash + 1);
  if (last == ".zarray") return MetadataKind::kZarray;
  if (last == ".zattrs") return MetadataKind::kZattrs;
  if (last == ".zgroup") return MetadataKind::kZgroup;
  if (last == ".zmetadata") return MetadataKind::kZmetadata;
  return MetadataKind::kNone;
}

std::string_view NodePath(std::string_view key) {
  const size_t slash = key.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : key.substr(0, slash);
}

}  // namespace kerchunk::verify::internal

// One .zarray: the metadata rules, then what its chunks must look like.
namespace kerchunk::verify::internal {
namespace {

// Exact stored size of a chunk when every codec's output size follows from its input size.
std::optional<uint64_t> FixedStoredSize(const codecs::Pipeline& pipeline, uint64_t decoded) {
  if (pipeline.is_object()) return std::nullopt;
  uint64_t size = decoded;
  for (const auto& codec : pipeline.codecs()) {
    std::optional<uint64_t> next = codec->EncodedSize(size);
    if (!next) return std::nullopt;
    size = *next;
  }
  return size;
}

std::optional<uint64_t> DecodedSize(const ZarrArrayMeta& meta, const DtypeInfo& dtype) {
  if (dtype.kind == 'O' || dtype.itemsize == 0) return std::nullopt;
  uint64_t n = dtype.itemsize;
  for (uint64_t c : meta.chunks) {
    std::optional<uint64_t> next = CheckedMul(n, c);
    if (!next) return std::nullopt;
    n = *next;
  }
  return n;
}

// Sets the sizes and the pipeline of an array whose metadata is valid.
void DescribeChunks(ArrayInfo& info) {
  info.decoded_size = DecodedSize(*info.meta, *info.dtype);
  Result<codecs::Pipeline> pipeline = codecs::Pipeline::FromZarray(*info.meta);
  if (!pipeline.ok()) {
    info.pipeline_error = pipeline.status().message();
    return;
  }
  info.pipeline = std::make_shared<const codecs::Pipeline>(*std::move(pipeline));
  if (info.decoded_size) info.stored_size = FixedStoredSize(*info.pipeline, *info.decoded_size);
}

}  // namespace

ArrayInfo AnalyzeZarray(std::string path, const Entry& entry, const ArrayRefs* refs, CaseLog& log) {
  ArrayInfo info;
  info.path = std::move(path);
  info.refs = refs;
  log.Examined();
  auto fail = [&](std::string_view why) {
    log.Fail(entry.key, fmt::format("{}: {}", entry.key, why));
    return info;
  };
  std::optional<std::string_view> text = MetadataText(entry);
  if (!text) return fail("expected a JSON document, got a byte-range reference");
  Result<ZarrArrayMeta> meta = ZarrArrayMeta::Parse(*text);
  if (!meta.ok()) return fail(meta.status().message());
  info.meta = *std::move(meta);
  Result<DtypeInfo> dtype = ParseDtype(info.meta->dtype_json);
  if (!dtype.ok()) return fail(dtype.status().message());
  info.dtype = *dtype;
  if (Status s = CheckFillValue(info.meta->fill_value, *info.dtype); !s.ok()) {
    return fail(fmt::format("{} for dtype {}", s.message(), info.meta->dtype));
  }
  if (Status s = CheckCodecs(*info.meta, *info.dtype); !s.ok()) return fail(s.message());
  Result<ChunkGrid> grid = info.meta->Grid();
  if (!grid.ok()) return fail(grid.status().message());
  info.grid = *std::move(grid);
  if (refs && !(refs->grid() == *info.grid)) {
    return fail("the reader's chunk grid differs from the one of the .zarray (internal error)");
  }
  info.valid = true;
  DescribeChunks(info);
  return info;
}

}  // namespace kerchunk::verify::internal

// Groups and attributes: what zarr needs to open the hierarchy and xarray to open a dataset.
namespace kerchunk::verify::internal {
namespace {

using json::Value;

std::string DisplayKey(std::string_view node, std::string_view name) {
  return node.empty() ? std::string(name) : fmt::format("{}/{}", node, name);
}

// The JSON document of a metadata entry, or the reason it has none.
Result<Value> ParseDocument(const Entry& entry) {
  std::optional<std::string_view> text = MetadataText(entry);
  if (!text) return InvalidArgumentError("expected a JSON document, got a byte-range reference");
  return Value::Parse(*text);
}

void CheckZgroup(const Entry& entry, CaseLog& log) {
  Result<Value> doc = ParseDocument(entry);
  if (!doc.ok())
    return log.Fail(entry.key, fmt::format("{}: {}", entry.key, doc.status().message()));
  const Value* format = doc->is_object() ? doc->Find("zarr_format") : nullptr;
  if (!format || !format->is_number() || format->as_double() != 2) {
    log.Fail(entry.key, fmt::format("{}: expected an object with \"zarr_format\": 2, got {}",
                                    entry.key, doc->Dump()));
  }
}

void CheckZattrs(const Entry& entry, const Catalog& catalog, const std::set<std::string>& groups,
                 CaseLog& log) {
  const std::string node(NodePath(entry.key));
  Result<Value> doc = ParseDocument(entry);
  if (!doc.ok() || !doc->is_object()) {
    std::string why =
        doc.ok() ? "expected a JSON object, got " + doc->Dump() : doc.status().message();
    return log.Fail(entry.key, fmt::format("{}: {}", entry.key, why));
  }
  const ArrayInfo* array = catalog.Find(node);
  if (!array && !groups.contains(node)) {
    return log.Fail(entry.key,
                    fmt::format("{}: attributes of nothing: neither {} nor {} exists", entry.key,
                                DisplayKey(node, ".zarray"), DisplayKey(node, ".zgroup")));
  }
}

void CheckZmetadata(const Entry& entry, const ReferenceSet& refs, CaseLog& log) {
  Result<Value> doc = ParseDocument(entry);
  const Value* metadata = doc.ok() && doc->is_object() ? doc->Find("metadata") : nullptr;
  if (!metadata || !metadata->is_object()) {
    return log.Fail(entry.key,
                    fmt::format("{}: expected an object with a \"metadata\" object", entry.key));
  }
  // zarr opened with consolidated metadata reads only this document, so it must agree with the
  // individual keys.
  for (const auto& [key, value] : metadata->as_object()) {
    const Entry* own = refs.FindEntry(key);
    Result<Value> parsed = own ? ParseDocument(*own) : Result<Value>(NotFoundError("missing"));
    if (!parsed.ok()) {
      log.Fail(key, fmt::format("{}: lists {}, which the references do not hold as a document",
                                entry.key, key));
    } else if (!(*parsed == value)) {
      log.Fail(key, fmt::format("{}: its copy of {} differs from the key itself", entry.key, key));
    }
  }
}

// Every group above an array or group must have a .zgroup, or zarr cannot reach it.
void CheckParentGroups(const Catalog& catalog, const std::set<std::string>& groups,
                       NodeLogs& logs) {
  std::set<std::string> reported;
  auto check_parents = [&](const std::string& node) {
    if (node.empty()) return;
    std::string_view parent = node;
    while (true) {
      const size_t slash = parent.rfind('/');
      parent = slash == std::string_view::npos ? std::string_view() : parent.substr(0, slash);
      const std::string p(parent);
      if (!groups.contains(p) && reported.insert(p).second) {
        const std::string key = DisplayKey(p, ".zgroup");
        logs[p].Fail(key,
                     fmt::format("{} is missing, so zarr cannot open {} inside it", key, node));
      }
      if (parent.empty()) return;
    }
  };
  for (const ArrayInfo& a : catalog.arrays) check_parents(a.path);
  for (const std::string& g : groups) check_parents(g);
}

}  // namespace

CaseLog& NodeLogs::operator[](std::string_view path) {
  auto [it, inserted] = index_.try_emplace(std::string(path), logs_.size());
  if (inserted) logs_.push_back(report_.NewCase(Check::kMetadata, std::string(path)));
  return logs_[it->second];
}

void NodeLogs::AddTo(Report& report) {
  for (CaseLog& log : logs_) report.Add(std::move(log));
  logs_.clear();
  index_.clear();
}

void CheckNodes(const ReferenceSet& refs, const Catalog& catalog, NodeLogs& logs) {
  std::set<std::string> groups;
  for (const Entry& e : refs.entries) {
    if (KindOfKey(e.key) == MetadataKind::kZgroup) groups.insert(std::string(NodePath(e.key)));
  }
  for (const Entry& e : refs.entries) {
    const MetadataKind kind = KindOfKey(e.key);
    if (kind == MetadataKind::kNone || kind == MetadataKind::kZarray) continue;
    CaseLog& log = logs[NodePath(e.key)];
    log.Examined();
    if (kind == MetadataKind::kZgroup) CheckZgroup(e, log);
    if (kind == MetadataKind::kZattrs) CheckZattrs(e, catalog, groups, log);
    if (kind == MetadataKind::kZmetadata) CheckZmetadata(e, refs, log);
  }
  CheckParentGroups(catalog, groups, logs);
}

Catalog CheckMetadata(const ReferenceSet& refs, Report& report) {
  NodeLogs logs(report);
  std::unordered_map<std::string_view, const Entry*> zarrays;
  std::vector<std::string_view> order;
  for (const Entry& e : refs.entries) {
    if (auto path = ZarrayKeyArrayPath(e.key)) {
      if (zarrays.emplace(*path, &e).second) order.push_back(*path);
    }
  }
  Catalog catalog;
  auto add = [&](std::string_view path, const ArrayRefs* columns) {
    auto it = zarrays.find(path);
    if (it == zarrays.end() || catalog.by_path.contains(std::string(path))) return;
    catalog.by_path.emplace(std::string(path), catalog.arrays.size());
    catalog.arrays.push_back(AnalyzeZarray(std::string(path), *it->second, columns, logs[path]));
  };
  for (const ArrayRefs& a : refs.arrays) add(a.path(), &a);
  for (std::string_view path : order) add(path, nullptr);
  CheckNodes(refs, catalog, logs);
  logs.AddTo(report);
  report.MarkRun(Check::kMetadata);
  return catalog;
}

}  // namespace kerchunk::verify::internal

// What xarray (engine "zarr") needs to open each group as a Dataset, beyond what zarr needs:
// every array names its dimensions in _ARRAY_DIMENSIONS, one name per dimension, a name has one
// length within a group, and a multi-dimensional array is not named like one of its dimensions.
// zarr itself reads an index that breaks these rules, so by default they are warnings.
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

// Codec configurations as numcodecs' registry (numcodecs/registry.py) would accept them.
namespace kerchunk::verify::internal {
namespace {

using json::Value;

// The ids of numcodecs 0.11's registry (the version zarr 2.13 ships with here) plus those added
// by 0.12-0.13 (checksums, pcodec), with the constructor parameters that have no default: a
// configuration without them makes numcodecs' get_codec() raise TypeError.
const std::map<std::string_view, std::vector<std::string_view>>& KnownCodecs() {
  static const std::map<std::string_view, std::vector<std::string_view>> kCodecs = {
      {"adler32", {}},
      {"astype", {"encode_dtype", "decode_dtype"}},
      {"base64", {}},
      {"bitround", {"keepbits"}},
      {"blosc", {}},
      {"bz2", {}},
      {"categorize", {"labels", "dtype"}},
      {"crc32", {}},
      {"crc32c", {}},
      {"delta", {"dtype"}},
      {"fixedscaleoffset", {"offset", "scale", "dtype"}},
      {"fletcher32", {}},
      {"gzip", {}},
      {"jenkins_lookup3", {}},
      {"json2", {}},
      {"lz4", {}},
      {"lzma", {}},
      {"msgpack2", {}},
      {"n5_wrapper", {"dtype", "chunk_shape"}},
      {"packbits", {}},
      {"pcodec", {}},
      {"pickle", {}},
      {"quantize", {"digits", "dtype"}},
      {"shuffle", {}},
      {"vlen-array", {"dtype"}},
      {"vlen-bytes", {}},
      {"vlen-utf8", {}},
      {"zfpy", {}},
      {"zlib", {}},
      {"zstd", {}},
  };
  return kCodecs;
}

// Object codecs: turn an array of Python objects into bytes, so one must come first for "|O".
bool IsObjectCodec(std::string_view id) {
  static const std::set<std::string_view> kIds = {"json2",      "vlen-utf8", "vlen-bytes",
                                                  "vlen-array", "pickle",    "msgpack2"};
  return kIds.contains(id);
}

std::string_view CodecId(const Value& config) {
  const Value* id = config.is_object() ? config.Find("id") : nullptr;
  return id && id->is_string() ? std::string_view(id->as_string()) : std::string_view();
}

}  // namespace

bool IsKnownNumcodecsId(std::string_view id) { return KnownCodecs().contains(id); }

Status CheckCodecConfig(const json::Value& config, std::string_view where) {
  if (!config.is_object()) {
    return InvalidArgumentError("{}: expected a codec configuration object, got {}", where,
                                config.Dump());
  }
  const std::string_view id = CodecId(config);
  if (id.empty()) {
    return InvalidArgumentError("{}: expected a string \"id\", got {}", where, config.Dump());
  }
  auto known = KnownCodecs().find(id);
  if (known == KnownCodecs().end()) {
    return InvalidArgumentError("{}: codec id \"{}\" is not known to numcodecs", where, id);
  }
  for (std::string_view param : known->second) {
    if (!config.Find(param)) {
      return InvalidArgumentError("{}: codec \"{}\" requires the parameter \"{}\"", where, id,
                                  param);
    }
  }
  // Codecs this toolkit implements also get their parameter values checked; Unsupported only
  // means numcodecs knows the codec and we do not decode it.
  Status status = codecs::IsObjectCodecId(id) ? codecs::MakeObjectCodec(config).status()
                                              : codecs::MakeCodec(config).status();
  if (status.code() == StatusCode::kInvalidArgument) {
    return InvalidArgumentError("{}: {}", where, status.message());
  }
  return OkStatus();
}

Status CheckCodecs(const ZarrArrayMeta& meta, const DtypeInfo& dtype) {
  if (!meta.compressor.is_null()) {
    KERCHUNK_RETURN_IF_ERROR(CheckCodecConfig(meta.compressor, "compressor"));
  }
  const Value::Array empty;
  const Value::Array& filters = meta.filters.is_array() ? meta.filters.as_array() : empty;
  for (size_t i = 0; i < filters.size(); ++i) {
    KERCHUNK_RETURN_IF_ERROR(CheckCodecConfig(filters[i], fmt::format("filters[{}]", i)));
    if (IsObjectCodec(CodecId(filters[i])) && (dtype.kind != 'O' || i != 0)) {
      return InvalidArgumentError(
          "filters[{}]: object codec \"{}\" is only valid as the first filter of an object "
          "(\"|O\") array; dtype is {}",
          i, CodecId(filters[i]), meta.dtype);
    }
  }
  if (dtype.kind == 'O' && (filters.empty() || !IsObjectCodec(CodecId(filters[0])))) {
    return InvalidArgumentError(
        "dtype \"|O\" needs an object codec (json2, vlen-utf8, vlen-bytes, ...) as the first "
        "filter; zarr refuses the array without one");
  }
  return OkStatus();
}

}  // namespace kerchunk::verify::internal
