#include "kerchunk/verify/verify.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/packed_index.h"
#include "kerchunk/util/file_io.h"
#include "verify/against.h"
#include "verify/checks.h"
#include "verify/chunks.h"

// The verify run: load, check in order (each check builds on what the earlier ones learned),
// write the reports.
namespace kerchunk::verify {
namespace {

using internal::CheckContext;
using internal::ResolvedFiles;

void CountFacts(const ReferenceSet& refs, InputFacts& facts) {
  facts.keys = refs.entries.size() + refs.ChunkCount();
  facts.chunk_refs = refs.ChunkCount();
  facts.files = refs.urls.size();
  facts.arrays = 0;
  for (const Entry& e : refs.entries) facts.arrays += ZarrayKeyArrayPath(e.key).has_value();
  facts.inline_chunks = 0;
  for (const ArrayRefs& a : refs.arrays) {
    for (uint32_t url : a.urls()) facts.inline_chunks += url > ArrayRefs::kMaxUrlId;
  }
}

// Decides whether files are checked, and fails when a check that needs every file cannot run.
Result<bool> ShouldCheckFiles(const VerifyOptions& options, const ResolvedFiles& files,
                              Report& report) {
  const bool needs_all = options.files == FilesMode::kOn || options.deep || options.source;
  if (files.remote > 0 && needs_all) {
    return InvalidArgumentError(
        "{} needs the files, but {} URL{} such as {} {} no local path and {} not http(s):// "
        "or s3://; give --rewrite REMOTE=LOCAL",
        options.files == FilesMode::kOn ? "--files" : (options.source ? "--source" : "--deep"),
        files.remote, files.remote == 1 ? "" : "s", files.first_remote,
        files.remote == 1 ? "has" : "have", files.remote == 1 ? "is" : "are");
  }
  if (options.files == FilesMode::kOff) return false;
  if (files.remote > 0) {
    report.AddNote(
        fmt::format("{} URL{} (e.g. {}) not checked: no local path; give --files to read "
                    "http(s):// and s3:// URLs over the network, or --rewrite REMOTE=LOCAL",
                    files.remote, files.remote == 1 ? "" : "s", files.first_remote));
  }
  return files.remote < files.by_url.size();
}

// `--junit data.nc` would replace a referenced data file with XML: refused before any file is
// read. Only an existing --junit file can be one (compared by identity, not by name).
Status RefuseJunitOverDataFile(const std::string& junit, const UrlTable& urls,
                               const ResolvedFiles& files) {
  if (junit.empty() || junit == "-") return OkStatus();
  std::optional<FileIdentity> id = IdentifyFile(junit);
  if (!id) return OkStatus();
  for (size_t i = 0; i < files.by_url.size(); ++i) {
    const internal::ResolvedFile& file = files.by_url[i];
    if (file.local() && IdentifyFile(file.path) == id) {
      return InvalidArgumentError(
          "--junit {} is the same file as the referenced file {}; refusing to overwrite an input",
          junit, internal::DescribeFile(urls, files, static_cast<uint32_t>(i)));
    }
  }
  return OkStatus();
}

}  // namespace

Status ValidateOptions(const VerifyOptions& options) {
  if (options.input.empty()) return InvalidArgumentError("no reference file given");
  if (!(options.sample > 0 && options.sample <= 1)) {
    return InvalidArgumentError("--sample: expected a fraction in (0, 1], got {}", options.sample);
  }
  if ((options.deep || options.source) && options.files == FilesMode::kOff) {
    return InvalidArgumentError(
        "--deep and --source read the files; they cannot run with "
        "--no-files");
  }
  return OkStatus();
}

Result<Report> VerifyReferences(const ReferenceSet& refs, const VerifyOptions& options,
                                std::string input_format,
                                const std::vector<SourceFileRecord>* sources) {
  KERCHUNK_RETURN_IF_ERROR(ValidateOptions(options));
  Report report(options.max_report);
  report.facts().path = options.input;
  report.facts().format = std::move(input_format);
  CountFacts(refs, report.facts());
  CaseLog document = report.NewCase(Check::kDocument, "");
  document.Examined();
  report.Add(std::move(document));

  const CheckContext context{options.threads, options.progress};
  const internal::Catalog catalog = internal::CheckMetadata(refs, report);
  internal::CheckXarray(refs, catalog, options.xarray, report);
  internal::CheckKeys(refs, catalog, report);
  internal::CheckRanges(refs, catalog, context, report);

  // Remote files are read only when asked for: a plain verify stays off the network.
  const bool read_remote = options.files == FilesMode::kOn || options.deep || options.source;
  KERCHUNK_ASSIGN_OR_RETURN(
      ResolvedFiles files,
      internal::ResolveFiles(refs.urls, options.rewrites, options.files != FilesMode::kOff,
                             options.threads, read_remote ? &options.remote : nullptr));
  KERCHUNK_RETURN_IF_ERROR(RefuseJunitOverDataFile(options.junit, refs.urls, files));
  KERCHUNK_ASSIGN_OR_RETURN(bool check_files, ShouldCheckFiles(options, files, report));
  if (check_files) {
    internal::CheckFiles(refs, catalog, files, report);
    if (sources) internal::CheckSourceIdentity(*sources, refs, files, context.threads, report);
  }
  if (options.deep || options.source) {
    internal::ChunkCheckOptions chunk_options;
    chunk_options.sample = options.sample;
    chunk_options.seed = options.seed;
    chunk_options.source = options.source;
    internal::CheckChunks(refs, catalog, files, chunk_options, context, report);
  }
  if (!options.against.empty()) {
    KERCHUNK_RETURN_IF_ERROR(internal::CompareWithOther(refs, options, context, report));
  }
  if (files.access) {
    report.facts().remote_files = files.read_remotely;
    report.facts().remote_requests = files.access->requests();
    report.facts().remote_bytes = files.access->bytes();
  }
  return report;
}

Result<Report> VerifyFile(const VerifyOptions& options) {
  KERCHUNK_RETURN_IF_ERROR(ValidateOptions(options));
  Result<internal::LoadedReferences> loaded = internal::LoadReferences(options.input);
  if (!loaded.ok() && internal::IsUnreadable(loaded.status())) return loaded.status();
  Result<Report> report = Report(options.max_report);
  // scan's record of the source files, in Kerchunk JSON or a packed file.
  Result<std::optional<std::vector<SourceFileRecord>>> sources =
      std::optional<std::vector<SourceFileRecord>>();
  if (loaded.ok()) sources = pack::ReadIndexSourceRecord(options.input);
  if (loaded.ok() && !sources.ok()) {
    loaded = sources.status();  // a malformed record: the document is not valid
  }
  if (loaded.ok()) {
    report =
        VerifyReferences(loaded->refs, options, loaded->format, *sources ? &**sources : nullptr);
    if (!report.ok()) return report.status();
  } else {
    // Read but not valid: the one problem is the document itself (the message names the file).
    report->facts().path = options.input;
    report->facts().format =
        internal::IsPackedFile(options.input) ? "invalid packed file" : "invalid Kerchunk JSON";
    CaseLog document = report->NewCase(Check::kDocument, "");
    document.Examined();
    document.Fail("", loaded.status().message());
    report->Add(std::move(document));
  }
  return report;
}

}  // namespace kerchunk::verify

namespace kerchunk::verify::internal {
bool IsPackedFile(const std::string& path) { return pack::IsPackedFile(path); }

bool IsUnreadable(const Status& status) {
  return status.code() == StatusCode::kNotFound || status.code() == StatusCode::kIoError;
}

Result<LoadedReferences> LoadReferences(const std::string& path) {
  LoadedReferences out;
  if (!IsPackedFile(path)) {
    KERCHUNK_ASSIGN_OR_RETURN(out.refs, ReadKerchunkFile(path));
    out.format = "Kerchunk JSON";
    return out;
  }
  Result<pack::PackedIndex> index = pack::PackedIndex::Open(path);
  if (!index.ok()) return std::move(index).status().Annotate("packed file " + path);
  Result<ReferenceSet> refs = index->UnpackAll();
  if (!refs.ok()) return std::move(refs).status().Annotate("packed file " + path);
  out.refs = *std::move(refs);
  out.format = "packed, checksum " + index->checksum().ToString();
  return out;
}

}  // namespace kerchunk::verify::internal
