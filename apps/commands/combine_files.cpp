// The `kerchunk combine` driver: reference files in, one combined reference file out.
#include "kerchunk/commands/combine_files.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/source_checksum.h"
#include "kerchunk/util/parallel.h"
#include "run_output.h"

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

// The parts' records (scan shards write them). A record with a checksum is checked against its
// own part first: the combined index may reference fewer bytes of the file (a concat coordinate
// stored inline after conversion), so its checksum is recomputed for the combined references,
// which must not launder a file that changed after the part was scanned. Such a record keeps
// the part's values (verify then reports the file); one that cannot be read loses its checksum.
struct PartRecords {
  std::vector<SourceFileRecord> files;
  std::vector<bool> recompute;  // by position in files
};

Result<PartRecords> ReadPartRecords(const std::vector<std::string>& paths,
                                    const std::vector<ReferenceSet>& parts,
                                    const UrlToLocalPath& to_path,
                                    std::vector<std::string>& warnings) {
  PartRecords out;
  for (size_t p = 0; p < paths.size(); ++p) {
    KERCHUNK_ASSIGN_OR_RETURN(auto record, ReadSourceRecord(paths[p]));
    if (!record) continue;
    std::vector<std::vector<ReferencedRange>> ranges;
    for (SourceFileRecord& file : *record) {
      bool recompute = false;
      if (file.metadata_xxh3) {
        if (ranges.empty()) ranges = ReferencedRangesByUrl(parts[p]);
        const std::optional<uint32_t> id = parts[p].urls.Find(file.url);
        Result<std::string> path = to_path.PathFor(file.url);
        Result<uint64_t> now = !path.ok() ? Result<uint64_t>(path.status())
                               : id       ? HashUnreferencedBytes(*path, ranges[*id])
                                          : Result<uint64_t>(NotFoundError("not referenced"));
        if (!now.ok()) {
          warnings.push_back(
              fmt::format("{}: checksum dropped: {}", file.url, now.status().message()));
          file.metadata_xxh3.reset();
        } else if (*now != *file.metadata_xxh3) {
          warnings.push_back(fmt::format(
              "{}: changed since {} was scanned (its metadata checksum differs); the record "
              "keeps the scan's values, so verify --files reports it",
              file.url, paths[p]));
        } else {
          recompute = true;
        }
      }
      out.files.push_back(std::move(file));
      out.recompute.push_back(recompute);
    }
  }
  return out;
}

// Recomputes the checksums `records` marks for the combined references.
Status RecomputeChecksums(const ReferenceSet& combined, PartRecords& records,
                          const UrlToLocalPath& to_path, unsigned threads) {
  std::vector<SourceFileRecord> marked;
  std::vector<size_t> at;
  for (size_t i = 0; i < records.files.size(); ++i) {
    if (records.recompute[i]) {
      marked.push_back(records.files[i]);
      at.push_back(i);
    }
  }
  KERCHUNK_RETURN_IF_ERROR(AddChecksums(
      combined, [&](const std::string& url) { return *to_path.PathFor(url); }, threads, marked));
  for (size_t k = 0; k < at.size(); ++k) records.files[at[k]] = std::move(marked[k]);
  return OkStatus();
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
  KERCHUNK_ASSIGN_OR_RETURN(PartRecords records,
                            ReadPartRecords(paths, parts, to_path, summary.warnings));
  std::erase_if(parts, IsEmpty);  // empty shards
  if (parts.empty()) return InvalidArgumentError("all {} reference files are empty", paths.size());

  ReferenceSet combined;
  if (parts.size() == 1) {
    combined = std::move(parts.front());
  } else {
    CombineOptions combine = options.combine;
    combine.url_to_path = ReadThrough(to_path);
    combine.threads = options.threads;
    summary.concat_dim = internal::ConcatDimsText(combine);
    KERCHUNK_ASSIGN_OR_RETURN(combined,
                              CombineReferenceSets(std::move(parts), combine, &summary.warnings));
  }
  for (const std::string& warning : summary.warnings) {
    internal::Warn(streams, "combine", options.quiet, warning);
  }
  KERCHUNK_RETURN_IF_ERROR(RecomputeChecksums(combined, records, to_path, options.threads));
  // The parts' records carry over for the URLs the output keeps.
  WriteOptions write = options.write;
  write.threads = options.threads;  // a large JSON text is serialized on every core too
  KERCHUNK_RETURN_IF_ERROR(internal::FinishRun(
      combined, options.output, write, options.packed, start, options.summary_format, options.quiet,
      streams, summary, internal::SourcesOf(combined, records.files)));
  return summary;
}

}  // namespace kerchunk
