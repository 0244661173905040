// The known, documented differences between our HDF5 translation and Python kerchunk 0.2.2's
// output (docs/differences.md explains each), and what we do with the files kerchunk failed on.
// The golden test fails on any difference not listed here and on any listed one that no longer
// occurs, so the table stays exact.
#pragma once

#include <ostream>
#include <string_view>
#include <vector>

namespace kerchunk::testing {

/// A kind of difference for one key.
enum class DiffKind {
  kMissing,  ///< kerchunk has the key, we do not
  kExtra,    ///< we have the key, kerchunk does not
  kZarray,   ///< .zarray documents differ in meaning
  kZattrs,   ///< .zattrs documents differ in meaning
  kRef,      ///< byte ranges differ
  kInline,   ///< inline data differs (bytes and JSON meaning)
};

/// An allowed difference: files and keys matching the fnmatch patterns (where '*' also matches
/// '/'), of one kind, for a reason.
struct GoldenException {
  std::string_view file;  ///< path under data/, e.g. "filters/kerchunk/hdf5_mali_chunk.h5"
  std::string_view key;
  DiffKind kind;
  std::string_view reason;
};

const std::vector<GoldenException>& GoldenExceptions();

/// What ScanHdf5File does, under the default policy (OnUnsupported::kError), with a file that
/// kerchunk 0.2.2 failed on (log.json).
struct FailedFileOutcome {
  std::string_view file;   ///< path under data/
  std::string_view error;  ///< "" when we translate it; else a substring of our error message
};

const std::vector<FailedFileOutcome>& KerchunkFailedFileOutcomes();

/// For readable test names in ctest output.
inline void PrintTo(const FailedFileOutcome& o, std::ostream* os) { *os << o.file; }

}  // namespace kerchunk::testing
