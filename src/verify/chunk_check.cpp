#include "verify/chunk_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "kerchunk/codecs/fletcher32.h"
#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/parallel.h"
#include "kerchunk/util/progress.h"
#include "verify/chunk_plan.h"
#include "verify/chunk_source.h"
#include "verify/object_chunks.h"
#include "verify/stored_bytes.h"

namespace kerchunk::verify::internal {
namespace {

// Chunks per work item: small enough to balance threads, large enough to amortise the
// per-item bookkeeping.
constexpr size_t kChunksPerItem = 64;

bool IsJson2(const ZarrArrayMeta& meta) {
  if (!meta.filters.is_array() || meta.filters.as_array().empty()) return false;
  const json::Value* id = meta.filters.as_array()[0].Find("id");
  return id && id->is_string() && id->as_string() == "json2";
}

struct WorkItem {
  size_t plan;
  size_t begin, end;
};

struct ItemResult {
  CaseLog decode;
  CaseLog source;
};

class ChunkChecker {
 public:
  ChunkChecker(const ReferenceSet& refs, const ResolvedFiles& files,
               const ChunkCheckOptions& options)
      : refs_(refs), files_(files), options_(options), reader_(files), sources_(files) {}

  void Run(const WorkItem& item, ItemResult& result, Progress* progress);
  /// Plans the arrays before Run (see PlanArrays).
  void Plan(const std::vector<const ArrayInfo*>& arrays, unsigned threads,
            std::vector<CaseLog>& source_logs) {
    plans_ = PlanArrays(refs_, arrays, files_, options_.source, sources_, threads, source_logs);
  }
  const std::vector<ArrayPlan>& plans() const { return plans_; }

 private:
  void CheckChunk(const ArrayPlan& plan, size_t i, std::string& stored, std::string& decoded,
                  ItemResult& result);
  // An inline chunk of an array several files fill: each file's elements against the file.
  void CompareInlineChunk(const ArrayPlan& plan, size_t i, const std::string& decoded,
                          CaseLog& log);
  // The stored bytes of reference i (inline data, a whole file or a range), without the
  // fletcher32 checksum, which is verified here. False when the chunk is not checked.
  bool StoredBytes(const ArrayPlan& plan, size_t i, const FileGeometry* geometry,
                   std::string& stored, CaseLog& log, const std::string& key);

  const ReferenceSet& refs_;
  const ResolvedFiles& files_;
  const ChunkCheckOptions& options_;
  FileReader reader_;
  SourceFiles sources_;
  std::vector<ArrayPlan> plans_;
};

bool ChunkChecker::StoredBytes(const ArrayPlan& plan, size_t i, const FileGeometry* geometry,
                               std::string& stored, CaseLog& log, const std::string& key) {
  const ArrayRefs& array = *plan.info->refs;
  const uint32_t url = array.urls()[i];
  if (url > ArrayRefs::kMaxUrlId) {
    const uint64_t at = array.offsets()[i];
    stored.assign(array.inline_data(), at, array.lengths()[i]);
    return true;
  }
  const ResolvedFile& file = files_.by_url[url];
  const uint64_t offset = array.offsets()[i], length = array.lengths()[i];
  const bool whole = length == ArrayRefs::kWholeFileLength;
  if (!file.usable() || (!whole && !RangeWithin(offset, length, file.size)) ||
      (!whole && length == 0)) {
    log.Skip(1, "the files or ranges check rejected the reference");
    return false;
  }
  const bool fletcher32 = geometry && geometry->fletcher32 && !whole;
  const uint64_t extra = fletcher32 ? codecs::kFletcher32Bytes : 0;
  if (fletcher32 && !RangeWithin(offset, length + extra, file.size)) {
    log.Fail(key, fmt::format("{}: bytes [{}, {}) of {} are followed by the end of the file, "
                              "not by the chunk's fletcher32 checksum",
                              key, offset, offset + length, refs_.urls[url]));
    return false;
  }
  Status status =
      whole ? reader_.ReadAll(url, stored) : reader_.Read(url, offset, length + extra, stored);
  if (status.ok() && fletcher32) {
    status = codecs::VerifyFletcher32(stored);
    stored.resize(length);
  }
  if (!status.ok()) {
    log.Fail(key, fmt::format("{}: bytes [{}, {}) of {}: {}", key, offset, offset + length,
                              refs_.urls[url], status.message()));
    return false;
  }
  return true;
}

void ChunkChecker::CheckChunk(const ArrayPlan& plan, size_t i, std::string& stored,
                              std::string& decoded, ItemResult& result) {
  const ArrayInfo& info = *plan.info;
  const ArrayRefs& array = *info.refs;
  const uint32_t ref_url = array.urls()[i];
  const std::optional<uint32_t> url =
      ref_url <= ArrayRefs::kMaxUrlId ? std::optional<uint32_t>(ref_url) : plan.inline_url;
  const FileGeometry* geometry = nullptr;
  if (url) {
    auto it = plan.files.find(*url);
    if (it != plan.files.end()) geometry = &it->second;
  }
  const std::string key = array.KeyPrefix() + array.grid().Key(array.chunk_index(i));
  if (!StoredBytes(plan, i, geometry, stored, result.decode, key)) return;
  result.decode.Examined();
  const codecs::Pipeline& pipeline = *info.pipeline;
  const std::string where =
      ref_url <= ArrayRefs::kMaxUrlId
          ? fmt::format("bytes [{}, {}) of {}", array.offsets()[i],
                        array.offsets()[i] + stored.size(), refs_.urls[ref_url])
          : std::string("inline data");
  codecs::StringArray strings;
  if (pipeline.is_object()) {
    Result<codecs::StringArray> s = pipeline.DecodeStrings(stored, codecs::kMaxDecodedChunkBytes);
    uint64_t expected = 1;
    for (uint64_t c : info.meta->chunks) expected *= c;
    if (!s.ok() && IsJson2(*info.meta)) {
      // json2 may hold other JSON values than strings: check its form instead.
      if (Status form = CheckJson2Chunk(pipeline, stored, expected); !form.ok()) {
        result.decode.Fail(key,
                           fmt::format("{}: {} do not decode: {}", key, where, form.message()));
      } else if (options_.source) {
        result.source.Skip(1, "object items that are not strings are not compared");
      }
      return;
    }
    if (!s.ok() || s->values.size() != expected) {
      result.decode.Fail(
          key,
          fmt::format("{}: {} do not decode to {} strings: {}", key, where, expected,
                      s.ok() ? fmt::format("got {}", s->values.size()) : s.status().message()));
      return;
    }
    strings = *std::move(s);
  } else {
    Result<std::string> d = pipeline.Decode(stored, *info.decoded_size);
    if (!d.ok()) {
      result.decode.Fail(key, fmt::format("{}: {} do not decode to the chunk's {} bytes: {}", key,
                                          where, *info.decoded_size, d.status().message()));
      return;
    }
    decoded = *std::move(d);
  }
  if (!options_.source) return;
  if (!url && !plan.inline_files.empty() && !pipeline.is_object()) {
    CompareInlineChunk(plan, i, decoded, result.source);
  } else if (!url || !geometry) {
    result.source.Skip(1, "inline chunk of an array whose original file is not known");
  } else if (!geometry->error.ok()) {
    result.source.Skip(1, geometry->error.code() == StatusCode::kUnsupported
                              ? geometry->error.message()
                              : "the original file cannot be read (reported once per file)");
  } else if (info.meta->order != 'C') {
    result.source.Skip(1, "arrays in Fortran order are not compared");
  } else {
    CompareWithSource(refs_, info, plan.index, i, *geometry, *url, decoded,
                      pipeline.is_object() ? &strings.values : nullptr, sources_, result.source);
  }
}

void ChunkChecker::CompareInlineChunk(const ArrayPlan& plan, size_t i, const std::string& decoded,
                                      CaseLog& log) {
  bool compared = false;
  for (const auto& [url, geometry] : plan.inline_files) {
    compared |=
        CompareInlinePart(refs_, *plan.info, plan.index, i, geometry, url, decoded, sources_, log);
  }
  if (compared) {
    log.Examined();
  } else {
    log.Skip(1, "inline chunk of elements no file's place is known for");
  }
}

void ChunkChecker::Run(const WorkItem& item, ItemResult& result, Progress* progress) {
  const ArrayPlan& plan = plans_[item.plan];
  std::string stored, decoded;
  for (size_t i = item.begin; i < item.end; ++i) {
    if (progress) progress->Advance();
    if (!Sampled(plan.ordinal, plan.info->refs->chunk_index(i), options_.sample, options_.seed)) {
      result.decode.Skip(1, "not in the --sample");
      if (options_.source) result.source.Skip(1, "not in the --sample");
      continue;
    }
    CheckChunk(plan, i, stored, decoded, result);
  }
}

}  // namespace

void CheckChunks(const ReferenceSet& refs, const Catalog& catalog, const ResolvedFiles& files,
                 const ChunkCheckOptions& options, const CheckContext& context, Report& report) {
  ChunkChecker checker(refs, files, options);
  std::vector<const ArrayInfo*> arrays;
  std::vector<CaseLog> decode_logs, source_logs;
  for (const ArrayInfo& info : catalog.arrays) {
    if (!info.refs) continue;
    arrays.push_back(&info);
    decode_logs.push_back(report.NewCase(Check::kDecode, info.path));
    source_logs.push_back(report.NewCase(Check::kSource, info.path));
    if (!info.valid || !info.pipeline) {
      const std::string why = info.valid ? "codecs not supported: " + info.pipeline_error
                                         : "invalid .zarray (see metadata)";
      decode_logs.back().Skip(info.refs->size(), why);
      if (options.source) source_logs.back().Skip(info.refs->size(), why);
    }
  }
  checker.Plan(arrays, context.threads, source_logs);
  std::vector<WorkItem> items;
  uint64_t total = 0;
  for (size_t p = 0; p < checker.plans().size(); ++p) {
    const ArrayInfo& info = *checker.plans()[p].info;
    if (!checker.plans()[p].decodable) continue;
    for (size_t b = 0; b < info.refs->size(); b += kChunksPerItem) {
      items.push_back({p, b, std::min(info.refs->size(), b + kChunksPerItem)});
    }
    total += info.refs->size();
  }
  std::vector<ItemResult> results;
  results.reserve(items.size());
  for (const WorkItem& item : items) {
    results.push_back({report.NewCase(Check::kDecode, decode_logs[item.plan].name()),
                       report.NewCase(Check::kSource, source_logs[item.plan].name())});
  }
  Progress* progress = context.progress;
  if (progress) progress->Start(options.source ? "verify --source" : "verify --deep", total);
  ParallelFor(items.size(), context.threads,
              [&](size_t k) { checker.Run(items[k], results[k], progress); });
  if (progress) progress->Finish();
  for (size_t k = 0; k < items.size(); ++k) {
    decode_logs[items[k].plan].Merge(std::move(results[k].decode));
    source_logs[items[k].plan].Merge(std::move(results[k].source));
  }
  for (CaseLog& log : decode_logs) report.Add(std::move(log));
  report.MarkRun(Check::kDecode);
  if (options.source) {
    for (CaseLog& log : source_logs) report.Add(std::move(log));
    report.MarkRun(Check::kSource);
  }
}

}  // namespace kerchunk::verify::internal
