// `kerchunk verify`: checks a Kerchunk reference set (plain JSON or packed) the way a data
// centre needs before publishing it: structure, the referenced files, the decoded chunks, the
// values the HDF5/netCDF libraries read, and differences from another reference set.
// docs/verify.md lists every check and which kind of broken index each one catches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "kerchunk/io/byte_source.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/scan/url_mapping.h"
#include "kerchunk/util/progress.h"
#include "kerchunk/util/status.h"
#include "kerchunk/verify/report.h"

namespace kerchunk::verify {

/// Whether to check the referenced files (existence and sizes).
enum class FilesMode {
  /// check the URLs that are local paths or mapped by a rewrite rule; note the others (no
  /// network access unless asked for)
  kAuto,
  /// check every URL: local paths, and http(s):// and s3:// URLs without a rewrite rule over
  /// the network; a URL of another scheme without a rule is a usage error
  kOn,
  kOff,  ///< do not look at files (structure only)
};

enum class ReportFormat { kText, kJson };

struct VerifyOptions {
  std::string input;  ///< plain Kerchunk JSON (v0/v1) or a packed file
  FilesMode files = FilesMode::kAuto;
  /// Read and decode chunks (implies the files check; every URL must have a local path or be
  /// an http(s):// or s3:// URL, read in place).
  bool deep = false;
  /// Fraction of chunks --deep reads, in (0, 1]; the choice is a deterministic function of the
  /// key and `seed`, so a rerun checks the same chunks.
  double sample = 1.0;
  uint64_t seed = 0;
  /// Also compare each decoded chunk with what the HDF5 or netCDF library reads for its
  /// elements from the original file (implies deep).
  bool source = false;
  /// Fail (rather than warn) when xarray could not open a group: missing or inconsistent
  /// _ARRAY_DIMENSIONS (see docs/verify.md "xarray").
  bool xarray = false;
  /// Another reference set (plain or packed) to compare with, by meaning.
  std::string against;
  /// REMOTE=LOCAL rules: read URLs starting with REMOTE from LOCAL (longest REMOTE wins). Also
  /// applied to both sides of --against before comparing URLs.
  std::vector<PrefixRewrite> rewrites;
  /// How http(s):// and s3:// URLs no rule maps are read (with --files, --deep, --source).
  io::SourceOptions remote;
  /// Problems listed in the text and JSON reports (and kept per JUnit test case).
  size_t max_report = 20;
  ReportFormat format = ReportFormat::kText;
  /// Also write a JUnit XML report to this file ("" for none; "-" for standard output).
  std::string junit;
  unsigned threads = 0;  ///< 0: hardware threads
  /// Told about the chunks --deep and --source read; none when null.
  Progress* progress = nullptr;
  bool quiet = false;  ///< for the command (RunVerify): no progress bar
};

/// Checks that `options` are usable together (sample range, --deep with --no-files, ...).
Status ValidateOptions(const VerifyOptions& options);

/// Runs the checks `options` ask for on a reference set already in memory. `input_format` is
/// shown in reports ("Kerchunk JSON", "packed"). Problems go into the report (a remote file that
/// answers 404 or 403 is a files problem naming the URL); only usage problems
/// (InvalidArgument: --deep on URLs of an unknown scheme without --rewrite, an unreadable
/// --against file) are errors.
/// `sources`: the scan's record of the referenced files (kerchunk/refs/source_record.h); when
/// given and the files check runs, a file whose size or modification time differs from the
/// record is a files problem.
Result<Report> VerifyReferences(const ReferenceSet& refs, const VerifyOptions& options,
                                std::string input_format = "Kerchunk JSON",
                                const std::vector<SourceFileRecord>* sources = nullptr);

/// Loads options.input (plain or packed) and runs VerifyReferences on it. A Kerchunk JSON
/// input's "kerchunk_sources" record is checked with the files. Returns the report (passed()
/// decides between exit status 0 and 1) or an error when verify could not run (exit status 2):
/// usage errors, an input or --against file that does not exist or cannot be read. An input
/// that is read but is not valid Kerchunk (or a packed file that does not expand to its
/// checksum) is a failed "document" check, not an error. Writes nothing.
Result<Report> VerifyFile(const VerifyOptions& options);

}  // namespace kerchunk::verify
