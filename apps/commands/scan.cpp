// The `kerchunk scan` driver: inputs -> per-file references (in parallel) -> one reference set.
#include "kerchunk/commands/scan.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <span>
#include <sstream>
#include <unordered_map>

#include "kerchunk/commands/progress_bar.h"
#include "kerchunk/io/byte_source.h"
#include "kerchunk/refs/source_checksum.h"
#include "kerchunk/scan/remote_inputs.h"
#include "kerchunk/scan/source_scan.h"
#include "kerchunk/util/file_io.h"
#include "kerchunk/util/parallel.h"
#include "run_output.h"

namespace kerchunk {
namespace {

using internal::NameFile;
using internal::Warn;

struct NamedFile {
  std::string path;  // absolute local path, or the remote URL as given
  std::string url;   // what the references say
};

Status CheckOptions(const ScanOptions& options) {
  if (options.shard && options.combine.concat_dim.empty()) {
    return InvalidArgumentError(
        "--shard needs --concat-dim: every shard and the final `kerchunk combine` must "
        "concatenate along the same dimension, which a shard cannot infer from the others");
  }
  if (options.checksum) {
    for (const std::string& input : options.inputs) {
      if (io::IsRemoteUrl(input)) {
        return InvalidArgumentError(
            "--checksum hashes local files only, and {} is remote: scan a local copy with "
            "--rewrite, or leave --checksum out",
            input);
      }
    }
  }
  if (options.shard && !options.combine.outer_dims.empty()) {
    return UnsupportedError(
        "--shard with several --concat-dim: a shard may hold part of one member's files, and "
        "combine cannot merge such parts yet; shard with one --concat-dim");
  }
  return OkStatus();
}

Result<std::vector<std::string>> ListFiles(const ScanOptions& options,
                                           const CommandStreams& streams) {
  std::vector<std::string> inputs = options.inputs;
  if (!options.files_from.empty()) {
    std::vector<std::string> listed;
    if (options.files_from == "-") {
      listed = ReadFileList(streams.in);
    } else {
      KERCHUNK_ASSIGN_OR_RETURN(std::string text, ReadFileToString(options.files_from));
      std::istringstream in(text);
      listed = ReadFileList(in);
    }
    inputs.insert(inputs.end(), listed.begin(), listed.end());
  }
  if (inputs.empty()) {
    return InvalidArgumentError("no input: name files, folders or patterns, or --files-from LIST");
  }
  // Local inputs are expanded together (sorted, de-duplicated); remote ones by listing.
  std::vector<std::string> local, remote;
  for (std::string& input : inputs) (io::IsRemoteUrl(input) ? remote : local).push_back(input);
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> files, ExpandInputs(local));
  for (const std::string& input : remote) {
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> urls,
                              ExpandRemoteInput(input, options.source));
    files.insert(files.end(), urls.begin(), urls.end());
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (files.empty()) {
    return InvalidArgumentError("no HDF5, NetCDF-4 or NetCDF-3 file found in the inputs");
  }
  return files;
}

Result<std::vector<NamedFile>> NameFiles(const std::vector<std::string>& files,
                                         const ScanOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(PathToUrl to_url,
                            PathToUrl::Make(options.url_prefix, options.rewrites));
  std::vector<NamedFile> named;
  std::unordered_map<std::string, const std::string*> seen;  // url -> path
  for (const std::string& path : files) {
    if (io::IsRemoteUrl(path)) {
      // A remote file is named by its URL; a --rewrite rule for that URL still applies
      // (publishing https:// references to an object scanned over s3://, say).
      named.push_back({path, ApplyLongestPrefix(options.rewrites, path).value_or(path)});
      continue;
    }
    KERCHUNK_ASSIGN_OR_RETURN(std::string url, to_url.UrlFor(path));
    named.push_back({path, url});
  }
  for (const NamedFile& file : named) {
    auto [it, inserted] = seen.emplace(file.url, &file.path);
    if (!inserted) {
      return InvalidArgumentError("{} and {} would both be referred to as {}", *it->second,
                                  file.path, file.url);
    }
  }
  return named;
}

thread_local const char* file_being_scanned = nullptr;

// Names the file this thread translates while it lives (see FileBeingScanned()).
class ScanningFile {
 public:
  explicit ScanningFile(const std::string& path) { file_being_scanned = path.c_str(); }
  ~ScanningFile() { file_being_scanned = nullptr; }
  ScanningFile(const ScanningFile&) = delete;
  ScanningFile& operator=(const ScanningFile&) = delete;
};

// Translates one file where it lives (ScanSource also checks that every byte range referenced
// lies inside the file, whatever the translator's own checks).
Result<FileScanResult> ScanOneFile(const NamedFile& file, const ScanOptions& options,
                                   FileFetchStats& stats, RetainedBytes* retained) {
  ScanningFile scope(file.path);
  return ScanSource(file.path, file.url, options.file_options, options.source, &stats, retained);
}

using ScanSlot = std::optional<Result<FileScanResult>>;

struct ScannedFiles {
  std::vector<ScanSlot> slots;
  std::vector<FileFetchStats> stats;
  /// By location: what remote files' scans kept for combine's reads of their coordinates.
  std::shared_ptr<std::unordered_map<std::string, RetainedBytes>> retained;
};

// A remote file's scan mostly waits on round trips, not on a core: with -j left at its default,
// this many remote files are kept in flight however few the cores, so that the latencies
// overlap (33 files 10 ms away: 766 ms with 2 in flight, 168 ms with 16; docs/remote.md).
constexpr unsigned kRemoteFilesInFlight = 16;

// The threads of the scan and of combine's reads: -j, else the hardware threads, or
// kRemoteFilesInFlight when that is more and some input is remote.
unsigned FilesInFlight(const std::vector<NamedFile>& files, unsigned requested) {
  if (requested != 0) return requested;
  const bool remote = std::any_of(files.begin(), files.end(),
                                  [](const NamedFile& f) { return io::IsRemoteUrl(f.path); });
  return remote ? std::max(ResolveThreads(0), kRemoteFilesInFlight) : ResolveThreads(0);
}

// Scans every file on up to options.threads threads. With OnError::kFail the first failure
// stops the files not yet started (their slots stay empty).
ScannedFiles ScanFiles(const std::vector<NamedFile>& files, const ScanOptions& options) {
  ScannedFiles out{std::vector<ScanSlot>(files.size()), std::vector<FileFetchStats>(files.size()),
                   std::make_shared<std::unordered_map<std::string, RetainedBytes>>()};
  // Several files are combined, and combine reads their coordinates.
  std::vector<RetainedBytes> retained(files.size() > 1 || options.shard ? files.size() : 0);
  std::atomic<bool> failed{false};
  ProgressBar progress("scan", files.size(), options.quiet);
  ParallelFor(files.size(), FilesInFlight(files, options.threads), [&](size_t i) {
    if (options.on_error == OnError::kFail && failed.load()) return;
    out.slots[i].emplace(
        ScanOneFile(files[i], options, out.stats[i], retained.empty() ? nullptr : &retained[i]));
    if (!out.slots[i]->ok()) failed.store(true);
    progress.Advance();
  });
  for (size_t i = 0; i < retained.size(); ++i) {
    if (retained[i].size() != 0) out.retained->emplace(files[i].path, std::move(retained[i]));
  }
  return out;
}

// What verify --files compares with later: each local file's size and modification time as its
// scan opened it. Taken from that open, not from a stat after the run, so that a file replaced
// while the run went on is recorded as the file that was read, and verify --files sees the
// change. Remote files are not recorded (no local stat); files that were not read have no
// references, and SourcesOf drops them.
std::vector<SourceFileRecord> RecordsOfScannedFiles(const std::vector<NamedFile>& files,
                                                    const std::vector<FileFetchStats>& stats) {
  std::vector<SourceFileRecord> records;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!stats[i].mtime_ns) continue;
    records.push_back(
        {.url = files[i].url, .size = stats[i].file_size, .mtime_ns = *stats[i].mtime_ns});
  }
  return records;
}

// The references of the files that were read, in list order, plus what to report.
struct Collected {
  std::vector<ReferenceSet> parts;
  std::string first_unlimited_dim;
};

Result<Collected> CollectResults(ScannedFiles scanned, const std::vector<NamedFile>& files,
                                 const ScanOptions& options, const CommandStreams& streams,
                                 RunSummary& summary) {
  Collected collected;
  internal::GroupedWarnings warnings;
  std::vector<ScanSlot>& slots = scanned.slots;
  for (size_t i = 0; i < slots.size(); ++i) {
    if (!slots[i]) continue;  // not started after another file failed
    const FileFetchStats& cost = scanned.stats[i];
    summary.files.push_back({files[i].path, cost.remote, cost.requests, cost.bytes_fetched,
                             cost.retries, cost.file_size, cost.seconds});
    Result<FileScanResult>& result = *slots[i];
    if (!result.ok()) {
      Status error = NameFile(result.status(), files[i].path);
      if (options.on_error == OnError::kFail) return error;
      Warn(streams, "scan", options.quiet, "skipped " + error.message());
      summary.skipped.push_back({files[i].path, error.message()});
      continue;
    }
    ++summary.read;
    for (const std::string& warning : result->warnings) warnings.Add(files[i].path, warning);
    if (collected.parts.empty() && !result->unlimited_dims.empty()) {
      collected.first_unlimited_dim = result->unlimited_dims.front();
    }
    collected.parts.push_back(std::move(result->refs));
  }
  for (std::string& line : warnings.Lines()) {
    Warn(streams, "scan", options.quiet, line);
    summary.warnings.push_back(std::move(line));
  }
  if (collected.parts.empty() && !files.empty()) {
    return InvalidArgumentError("none of the {} files could be read; the first error was: {}",
                                files.size(), summary.skipped.front().error);
  }
  return collected;
}

// Combine reads values (the concat coordinate, --identical-dims checks) from the files just
// scanned: local ones by path, remote ones through a byte source per call, neighbouring ranges
// in one request.
struct RemoteReads {
  std::atomic<uint64_t> requests{0}, bytes{0};
};

// The bytes of all `ranges` when the scan of `location` kept them (nullopt otherwise).
std::optional<std::vector<std::string>> FromRetained(
    const std::unordered_map<std::string, RetainedBytes>& retained, const std::string& location,
    std::span<const std::pair<uint64_t, uint64_t>> ranges) {
  auto kept = retained.find(location);
  if (kept == retained.end()) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& [offset, length] : ranges) {
    std::optional<std::string_view> bytes = kept->second.Find(offset, length);
    if (!bytes) return std::nullopt;
    out.emplace_back(*bytes);
  }
  return out;
}

UrlToPath UrlMapOf(const std::vector<NamedFile>& files, const io::SourceOptions& source,
                   std::shared_ptr<RemoteReads> counts,
                   std::shared_ptr<const std::unordered_map<std::string, RetainedBytes>> retained) {
  auto paths = std::make_shared<std::unordered_map<std::string, std::string>>();
  for (const NamedFile& file : files) paths->emplace(file.url, file.path);
  auto to_path = [paths](std::string_view url) -> Result<std::string> {
    auto it = paths->find(std::string(url));
    if (it == paths->end()) return NotFoundError("{}: not one of the scanned files", url);
    return it->second;
  };
  auto read_remote = [source, counts, retained](
                         const std::string& location,
                         std::span<const std::pair<uint64_t, uint64_t>> ranges)
      -> Result<std::vector<std::string>> {
    if (auto kept = FromRetained(*retained, location, ranges)) return *std::move(kept);
    KERCHUNK_ASSIGN_OR_RETURN(std::unique_ptr<io::ByteSource> bytes,
                              io::OpenByteSource(location, source));
    std::vector<io::ByteRange> byte_ranges;
    for (const auto& [offset, length] : ranges) byte_ranges.push_back({offset, length});
    auto read = io::ReadRanges(*bytes, byte_ranges);
    counts->requests += bytes->stats().requests;
    counts->bytes += bytes->stats().bytes_fetched;
    return read;
  };
  return UrlToPath(to_path, read_remote);
}

// One file of a whole list stays as it is; several are concatenated. A shard of a longer list is
// combined even when it holds one file, so that all parts have the same form.
Result<ReferenceSet> Assemble(
    Collected collected, const std::vector<NamedFile>& files, size_t total_files,
    const ScanOptions& options, const CommandStreams& streams, RunSummary& summary,
    std::shared_ptr<const std::unordered_map<std::string, RetainedBytes>> retained) {
  if (collected.parts.empty()) return ReferenceSet();  // an empty shard
  bool combine = options.shard ? total_files > 1 : collected.parts.size() > 1;
  if (!combine) return std::move(collected.parts.front());
  CombineOptions combine_options = options.combine;
  if (combine_options.concat_dim.empty()) {
    combine_options.concat_dim =
        collected.first_unlimited_dim.empty() ? "time" : collected.first_unlimited_dim;
  }
  auto remote_reads = std::make_shared<RemoteReads>();
  combine_options.url_to_path = UrlMapOf(files, options.source, remote_reads, std::move(retained));
  combine_options.threads = FilesInFlight(files, options.threads);  // it reads remote files too
  summary.concat_dim = internal::ConcatDimsText(combine_options);
  std::vector<std::string> warnings;
  KERCHUNK_ASSIGN_OR_RETURN(
      ReferenceSet combined,
      CombineReferenceSets(std::move(collected.parts), combine_options, &warnings));
  summary.combine_requests = remote_reads->requests;
  summary.combine_bytes_fetched = remote_reads->bytes;
  for (std::string& warning : warnings) {
    Warn(streams, "scan", options.quiet, warning);
    summary.warnings.push_back(std::move(warning));
  }
  return combined;
}

}  // namespace

const char* FileBeingScanned() { return file_being_scanned; }

Result<RunSummary> RunScan(const ScanOptions& options, const CommandStreams& streams) {
  auto start = std::chrono::steady_clock::now();
  KERCHUNK_RETURN_IF_ERROR(CheckOptions(options));
  KERCHUNK_RETURN_IF_ERROR(internal::CheckOutputPath(options.output));
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> all_files, ListFiles(options, streams));
  std::vector<std::string> files =
      options.shard ? ShardSlice(all_files, *options.shard) : all_files;
  RunSummary summary;
  summary.command = "scan";
  summary.output = options.output;
  summary.inputs = files.size();
  if (files.empty()) {
    Warn(streams, "scan", options.quiet,
         fmt::format("shard {}/{} holds none of the {} files; writing an empty part",
                     options.shard->index, options.shard->count, all_files.size()));
  }
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<NamedFile> named, NameFiles(files, options));
  ScannedFiles scanned = ScanFiles(named, options);
  std::vector<SourceFileRecord> sources = RecordsOfScannedFiles(named, scanned.stats);
  auto retained = scanned.retained;
  KERCHUNK_ASSIGN_OR_RETURN(Collected collected,
                            CollectResults(std::move(scanned), named, options, streams, summary));
  KERCHUNK_ASSIGN_OR_RETURN(
      ReferenceSet refs, Assemble(std::move(collected), named, all_files.size(), options, streams,
                                  summary, std::move(retained)));
  sources = internal::SourcesOf(refs, sources);
  if (options.checksum) {
    std::unordered_map<std::string, std::string> path_of;
    for (const NamedFile& file : named) path_of.emplace(file.url, file.path);
    KERCHUNK_RETURN_IF_ERROR(AddChecksums(
        refs, [&](const std::string& url) { return path_of.at(url); }, options.threads, sources));
  }
  WriteOptions write = options.write;
  write.threads = options.threads;  // a large JSON text is serialized on every core too
  KERCHUNK_RETURN_IF_ERROR(internal::FinishRun(refs, options.output, write, options.packed, start,
                                               options.summary_format, options.quiet, streams,
                                               summary, sources));
  return summary;
}

}  // namespace kerchunk
