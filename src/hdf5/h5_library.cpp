#include "kerchunk/hdf5/h5_library.h"

#include <mutex>

namespace kerchunk::hdf5 {

void SilenceLibraryErrors() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

std::string TakeLibraryErrorMessage() {
  std::string innermost;
  auto walk = [](unsigned, const H5E_error2_t* err, void* data) -> herr_t {
    auto* out = static_cast<std::string*>(data);
    if (out->empty() && err->desc && *err->desc) *out = err->desc;
    return 0;
  };
  // H5E_WALK_UPWARD starts at the innermost (most specific) error.
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk, &innermost);
  H5Eclear2(H5E_DEFAULT);
  return innermost;
}

Status LibraryError(std::string_view what, StatusCode code) {
  std::string msg = TakeLibraryErrorMessage();
  if (msg.empty()) return Status(code, std::string(what));
  return Status(code, fmt::format("{}: {}", what, msg));
}

void Handle::Close() {
  if (id_ < 0) return;
  switch (H5Iget_type(id_)) {
    case H5I_FILE:
      H5Fclose(id_);
      break;
    case H5I_GROUP:
      H5Gclose(id_);
      break;
    case H5I_DATASET:
      H5Dclose(id_);
      break;
    case H5I_DATATYPE:
      H5Tclose(id_);
      break;
    case H5I_DATASPACE:
      H5Sclose(id_);
      break;
    case H5I_ATTR:
      H5Aclose(id_);
      break;
    case H5I_GENPROP_LST:
      H5Pclose(id_);
      break;
    default:
      H5Oclose(id_);
      break;
  }
  id_ = H5I_INVALID_HID;
}

Result<Handle> Check(hid_t id, std::string_view what) {
  if (id < 0) return LibraryError(what);
  return Handle(id);
}

Status Check(herr_t result, std::string_view what) {
  if (result < 0) return LibraryError(what);
  return OkStatus();
}

Result<Handle> OpenFileReadOnly(const std::string& path) {
  SilenceLibraryErrors();
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id >= 0) return Handle(id);
  std::string first = TakeLibraryErrorMessage();
  id = H5Fopen(path.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, H5P_DEFAULT);
  if (id >= 0) return Handle(id);
  H5Eclear2(H5E_DEFAULT);
  return DataLossError("{}: not a readable HDF5 file: {}", path,
                       first.empty() ? "HDF5 cannot open it" : first);
}

}  // namespace kerchunk::hdf5
