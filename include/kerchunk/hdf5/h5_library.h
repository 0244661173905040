// The boundary to the HDF5 C library: RAII ownership of hid_t handles and conversion of failing
// calls into Status values carrying the library's own error message. Nothing outside
// src/hdf5/ and the tests includes <hdf5.h> through any other route.
#pragma once

#include <hdf5.h>

#include <string>
#include <string_view>
#include <utility>

#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// Turns off HDF5's automatic error printing (once per process) so failures surface only as
/// Status messages. Called by every entry point that opens files.
void SilenceLibraryErrors();

/// The innermost message of HDF5's current error stack (e.g. "file signature not found"), or
/// "" when the stack is empty. Clears the stack.
std::string TakeLibraryErrorMessage();

/// A Status for a failed HDF5 call: "<what>: <library message>", code kDataLoss unless given.
Status LibraryError(std::string_view what, StatusCode code = StatusCode::kDataLoss);

/// Owns one HDF5 identifier and closes it with the right H5*close for its type.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      Close();
      id_ = std::exchange(o.id_, H5I_INVALID_HID);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Close(); }

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void Close();

 private:
  hid_t id_ = H5I_INVALID_HID;
};

/// Wraps the id returned by an HDF5 call, or returns LibraryError(what) when it is negative.
Result<Handle> Check(hid_t id, std::string_view what);
/// Returns LibraryError(what) when an herr_t/htri_t result is negative.
Status Check(herr_t result, std::string_view what);

/// Opens an HDF5 file read-only. Files whose superblock says they are still open for writing
/// (HDF5 refuses them) are retried in SWMR-read mode, which skips that check.
Result<Handle> OpenFileReadOnly(const std::string& path);

}  // namespace kerchunk::hdf5
