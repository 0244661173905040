// What `kerchunk verify` found: per check and array, how many items were examined, how many
// problems were found (with the first few messages) and how many items could not be checked.
// One (check, array) pair is one JUnit test case; the report is written for people (text), for
// scripts (JSON) and for CI systems (JUnit XML) from the same data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kerchunk::verify {

/// The checks, in the order they run and are reported.
enum class Check : uint8_t {
  kDocument,  ///< the input is Kerchunk JSON v0/v1, or a packed file that expands to its checksum
  kMetadata,  ///< .zarray (shape, chunks, dtype, fill value, codecs), .zattrs, .zgroup
  kXarray,    ///< what xarray needs to open the groups: dimension names and consistent lengths
  kKeys,      ///< chunk keys: well formed, inside the grid, of an array that has a .zarray
  kRanges,    ///< byte ranges: non-empty, no overflow, exact size when uncompressed, no overlap
  kFiles,     ///< referenced files exist and hold every byte range
  kDecode,    ///< --deep: chunks decode through the declared codecs to the expected size
  kSource,    ///< --source: decoded chunks equal what the HDF5/netCDF library reads
  kAgainst,   ///< --against: differences from another reference set
};
inline constexpr size_t kCheckCount = 9;

/// "document", "metadata", "xarray", "keys", "ranges", "files", "decode", "source", "against".
std::string_view CheckName(Check check);

/// One problem. `message` is a whole sentence that names the key, and the file and byte range
/// where there is one.
struct Finding {
  std::string key;
  std::string message;
};

/// The results of one check on one array (or on the document, a file, ...): a JUnit test case.
/// Keeps the first `keep` findings and counts the rest.
class CaseLog {
 public:
  CaseLog(Check check, std::string name, size_t keep)
      : check_(check), name_(std::move(name)), keep_(keep) {}

  /// Counts `n` items examined (references, keys, documents).
  void Examined(uint64_t n = 1) { examined_ += n; }
  /// Records a problem.
  void Fail(std::string key, std::string message);
  /// Records a problem whose Finding `make()` builds only when it is kept (for hot loops in
  /// which a broken index can fail millions of times).
  template <typename MakeFinding>
  void FailWith(MakeFinding&& make) {
    ++failures_;
    if (findings_.size() < keep_) findings_.push_back(make());
  }
  /// Counts `n` items that could not be checked, e.g. "codec lz4 is not supported"; the first
  /// reason is kept.
  void Skip(uint64_t n, std::string_view reason);
  /// Adds the counts and findings of another log of the same case (findings appended in order).
  void Merge(CaseLog&& other);

  Check check() const { return check_; }
  const std::string& name() const { return name_; }
  uint64_t examined() const { return examined_; }
  uint64_t failures() const { return failures_; }
  uint64_t skipped() const { return skipped_; }
  const std::string& skip_reason() const { return skip_reason_; }
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  Check check_;
  std::string name_;
  size_t keep_;
  uint64_t examined_ = 0;
  uint64_t failures_ = 0;
  uint64_t skipped_ = 0;
  std::string skip_reason_;
  std::vector<Finding> findings_;
};

/// Totals of a --against comparison, by kind of difference.
struct DiffTotals {
  uint64_t compared = 0;           ///< keys present in both sets
  uint64_t only_in_input = 0;      ///< keys of the input missing from the other set
  uint64_t only_in_other = 0;      ///< keys of the other set missing from the input
  uint64_t metadata = 0;           ///< metadata documents that differ in meaning
  uint64_t references = 0;         ///< chunk references or other values that differ
  uint64_t same_bytes_inline = 0;  ///< inline on one side, a range with equal bytes on the other
  bool operator==(const DiffTotals&) const = default;
};

/// What was verified, for the summary.
struct InputFacts {
  std::string path;
  std::string format;  ///< "Kerchunk JSON" or "packed (format version N)"
  uint64_t keys = 0;
  uint64_t arrays = 0;
  uint64_t chunk_refs = 0;
  uint64_t inline_chunks = 0;
  uint64_t files = 0;  ///< distinct URLs
  /// Files read over the network, and the requests and bytes that took (0 when none).
  uint64_t remote_files = 0;
  uint64_t remote_requests = 0;
  uint64_t remote_bytes = 0;
};

/// The whole result of a verify run.
class Report {
 public:
  explicit Report(size_t keep = 20) : keep_(keep) {}

  /// A new, empty case log carrying this report's `keep`, to fill and then Add().
  CaseLog NewCase(Check check, std::string name) const {
    return CaseLog(check, std::move(name), keep_);
  }
  /// Adds a case; a case with the same check and name is merged into the earlier one.
  void Add(CaseLog log);
  /// Marks a check as run (a check that examined nothing still shows as "ok").
  void MarkRun(Check check) { ran_[static_cast<size_t>(check)] = true; }
  bool ran(Check check) const { return ran_[static_cast<size_t>(check)]; }
  /// An advisory check reports warnings: its problems are listed but do not fail the run.
  void SetAdvisory(Check check, bool advisory) { advisory_[static_cast<size_t>(check)] = advisory; }
  bool advisory(Check check) const { return advisory_[static_cast<size_t>(check)]; }
  /// A remark for the summary, e.g. "3 remote URLs not checked (add --rewrite)".
  void AddNote(std::string note) { notes_.push_back(std::move(note)); }

  InputFacts& facts() { return facts_; }
  const InputFacts& facts() const { return facts_; }
  DiffTotals& diff_totals() { return diff_totals_; }
  const DiffTotals& diff_totals() const { return diff_totals_; }
  std::string& against_path() { return against_path_; }
  const std::string& against_path() const { return against_path_; }

  /// Cases ordered by check, then in the order they were added.
  std::vector<const CaseLog*> Cases() const;
  const std::vector<std::string>& notes() const { return notes_; }
  /// Problems of the checks that are not advisory.
  uint64_t Failures() const;
  /// Problems of the advisory checks.
  uint64_t Warnings() const;
  /// Problems found by one check (advisory or not).
  uint64_t Failures(Check check) const;
  uint64_t Examined(Check check) const;
  uint64_t Skipped(Check check) const;
  /// True when no check that is not advisory found a problem (skipped items do not fail a
  /// run).
  bool passed() const { return Failures() == 0; }

 private:
  size_t keep_;
  std::vector<CaseLog> cases_;
  std::unordered_map<std::string, size_t> case_index_;  // check byte + name -> cases_ index
  bool ran_[kCheckCount] = {};
  bool advisory_[kCheckCount] = {};
  std::vector<std::string> notes_;
  InputFacts facts_;
  DiffTotals diff_totals_;
  std::string against_path_;
};

/// A few lines for people: what was read, one line per check, the first `max_problems`
/// problems and warnings, and the verdict ("OK", "OK (N warnings)" or "FAILED: N problems
/// (...)") on the last line.
void WriteTextReport(const Report& report, size_t max_problems, std::ostream& out);

/// One JSON object: {"input", "format", "passed", "failures", "warnings", "counts", "checks":
/// {name: {"ran", "advisory", "examined", "failures", "skipped"}}, "problems" and "warnings":
/// [first max_problems {"check", "case", "key", "message"}], "against": {...totals} when run,
/// "notes"}.
void WriteJsonReport(const Report& report, size_t max_problems, std::ostream& out);

/// JUnit XML: one <testsuite> per check that ran, one <testcase> per case (array); failed cases
/// hold one <failure> whose text lists the kept messages (an advisory check's warnings go to
/// <system-out> instead); cases with only skipped items are <skipped/>. Text is escaped for XML
/// (and characters XML 1.0 cannot hold are replaced).
std::string JunitReport(const Report& report);

}  // namespace kerchunk::verify
