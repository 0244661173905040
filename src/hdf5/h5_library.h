// The boundary to the HDF5 C library: RAII ownership of hid_t handles and conversion of failing
// calls into Status values carrying the library's own error message. Nothing outside
// src/hdf5/ and the tests includes <hdf5.h> through any other route than this header or
// hdf5/h5_api.h, which load libhdf5 when it is first used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "hdf5/h5_api.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// Turns off HDF5's automatic error printing (once per thread: a thread-safe libhdf5 keeps the
/// setting per thread) so failures surface only as Status messages.
void SilenceLibraryErrors();

/// Loads libhdf5 (once; NotFound naming it when it cannot be) and silences its error printing on
/// this thread. Every entry point that calls libhdf5 calls it first, so that a missing libhdf5 is
/// an error message, not an abort in hdf5::Api().
Status PrepareLibrary();

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

/// Opens an HDF5 file read-only. A file whose superblock says it is still open for writing
/// (a writer crashed; libhdf5 refuses it) is opened from a copy of its image in memory with the
/// superblock's status flags cleared (see ClearSuperblockStatusFlags), so every address, and so
/// every chunk reference, stays that of the file on disk. `image` supplies those bytes (e.g. a
/// MappedFile); when empty the file is read for that purpose. DataLoss naming the file when
/// libhdf5 cannot open it.
Result<Handle> OpenFileReadOnly(const std::string& path, std::span<const std::byte> image = {});

/// Opens an HDF5 file image held in memory with the core driver (which copies it). `name`
/// appears in error messages.
Result<Handle> OpenImageReadOnly(std::span<const std::byte> image, const std::string& name);

/// A copy of `image` whose superblock's file consistency (status) flags are zero, with the
/// superblock checksum of versions 2 and 3 recomputed: what `h5clear -s` does, in memory.
/// DataLoss when no superblock signature is found or it is truncated.
Result<std::string> ClearSuperblockStatusFlags(std::span<const std::byte> image);

}  // namespace kerchunk::hdf5
