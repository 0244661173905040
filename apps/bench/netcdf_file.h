// The boundary to the netCDF-C library for the bench generator: an owned file id, and failing
// return codes turned into a Status with what was being done and netCDF-C's message, so no
// NC_* code leaves src/bench/.
#pragma once

#include <string>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk::bench::internal {

/// Internal error "<what>: <nc_strerror(rc)>" for a failing netCDF-C call; OK for NC_NOERR.
Status NcCheck(int rc, std::string_view what);

/// A netCDF file open for writing; closed (and its error reported) by Close(), or closed
/// silently on destruction when an earlier error already ended the writing.
class NcWriter {
 public:
  /// Creates (clobbers) a NetCDF-4 file.
  static Result<NcWriter> Create(const std::string& path);

  NcWriter(NcWriter&& other) noexcept;
  NcWriter& operator=(NcWriter&&) = delete;
  NcWriter(const NcWriter&) = delete;
  NcWriter& operator=(const NcWriter&) = delete;
  ~NcWriter();

  int id() const { return ncid_; }
  const std::string& path() const { return path_; }
  /// Flushes and closes; errors name the file.
  Status Close();

  /// Attribute helpers (varid NC_GLOBAL = -1 for global attributes).
  Status PutText(int varid, const char* name, std::string_view text);
  Status PutFloat(int varid, const char* name, float value);

 private:
  NcWriter(int ncid, std::string path) : ncid_(ncid), path_(std::move(path)) {}
  int ncid_ = -1;
  std::string path_;
};

}  // namespace kerchunk::bench::internal
