// The `kerchunk combine` driver: reference files in, one combined reference file out.
#include "kerchunk/scan/combine_files.h"

#include <chrono>
#include <memory>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/parallel.h"
#include "scan/run_output.h"

namespace kerchunk {
namespace {

Result<std::vector<ReferenceSet>> ReadParts(const std::vector<std::string>& paths,
                                            unsigned threads) {
  std::vector<std::optional<Result<ReferenceSet>>> slots(paths.size());
  ParallelFor(paths.size(), threads,
              [&](size_t i) { slots[i].emplace(ReadKerchunkFile(paths[i])); });
  std::vector<ReferenceSet> parts;
  parts.reserve(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!slots[i]->ok()) return internal::NameFile(slots[i]->status(), paths[i]);
    parts.push_back(std::move(*slots[i]).value());
  }
  return parts;
}

bool IsEmpty(const ReferenceSet& refs) { return refs.entries.empty() && refs.arrays.empty(); }

UrlToPath ReadThrough(UrlToLocalPath mapper) {
  auto shared = std::make_shared<UrlToLocalPath>(std::move(mapper));
  return [shared](std::string_view url) { return shared->PathFor(url); };
}

}  // namespace

Result<RunSummary> RunCombineFiles(const CombineFilesOptions& options,
                                   const CommandStreams& streams) {
  auto start = std::chrono::steady_clock::now();
  KERCHUNK_ASSIGN_OR_RETURN(UrlToLocalPath to_path, UrlToLocalPath::Make(options.rewrites));
  KERCHUNK_RETURN_IF_ERROR(internal::CheckOutputPath(options.output));
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> paths, ExpandFilePatterns(options.parts));
  if (paths.empty()) return InvalidArgumentError("no input: name the reference files to combine");
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<ReferenceSet> parts, ReadParts(paths, options.threads));

  RunSummary summary;
  summary.command = "combine";
  summary.output = options.output;
  summary.inputs = paths.size();
  summary.read = paths.size();
  std::erase_if(parts, IsEmpty);  // empty shards
  if (parts.empty()) return InvalidArgumentError("all {} reference files are empty", paths.size());

  ReferenceSet combined;
  if (parts.size() == 1) {
    combined = std::move(parts.front());
  } else {
    summary.concat_dim = internal::ConcatDimsText(options.combine);
    KERCHUNK_ASSIGN_OR_RETURN(combined, internal::CombineParts(std::move(parts), options.combine,
                                                               ReadThrough(std::move(to_path)),
                                                               options.threads, summary.warnings));
  }
  for (const std::string& warning : summary.warnings) {
    internal::Warn(streams, "combine", options.quiet, warning);
  }
  // The parts' records (scan shards write them) carry over for the URLs the output keeps.
  std::vector<SourceFileRecord> sources;
  for (const std::string& path : paths) {
    KERCHUNK_ASSIGN_OR_RETURN(auto record, ReadSourceRecord(path));
    if (record) sources.insert(sources.end(), record->begin(), record->end());
  }
  KERCHUNK_RETURN_IF_ERROR(internal::FinishRun(combined, options.output,
                                               WriteOptions{options.combine.templates}, start,
                                               options.summary_format, options.quiet, streams,
                                               summary, internal::SourcesOf(combined, sources)));
  return summary;
}

}  // namespace kerchunk
