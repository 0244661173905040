#include "hdf5/h5_library.h"

#include <mutex>

#include "kerchunk/util/file_io.h"

namespace kerchunk::hdf5 {

void SilenceLibraryErrors() {
  // A thread-safe libhdf5 keeps one error stack, and its printing setting, per thread.
  thread_local bool silenced = false;
  if (!silenced) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    silenced = true;
  }
}

Status PrepareLibrary() {
  KERCHUNK_RETURN_IF_ERROR(LoadLibrary());
  SilenceLibraryErrors();
  return OkStatus();
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

Result<Handle> OpenFileReadOnly(const std::string& path, std::span<const std::byte> image) {
  KERCHUNK_RETURN_IF_ERROR(PrepareLibrary());
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id >= 0) return Handle(id);
  const std::string first = TakeLibraryErrorMessage();
  if (first.find("already open for write") == std::string::npos &&
      first.find("SWMR") == std::string::npos) {
    return DataLossError("{}: not a readable HDF5 file: {}", path,
                         first.empty() ? "HDF5 cannot open it" : first);
  }
  std::string owned;
  if (image.empty()) {
    KERCHUNK_ASSIGN_OR_RETURN(owned, ReadFileToString(path));
    image = std::as_bytes(std::span(owned));
  }
  KERCHUNK_ASSIGN_OR_RETURN(std::string cleared, ClearSuperblockStatusFlags(image).Annotate(path));
  return OpenImageReadOnly(std::as_bytes(std::span(cleared)), path);
}

Result<Handle> OpenImageReadOnly(std::span<const std::byte> image, const std::string& name) {
  KERCHUNK_RETURN_IF_ERROR(PrepareLibrary());
  KERCHUNK_ASSIGN_OR_RETURN(Handle fapl, Check(H5Pcreate(H5P_FILE_ACCESS), name));
  // The core driver copies the image (no callbacks given), so `image` need not outlive the file.
  if (H5Pset_fapl_core(fapl.get(), 1 << 20, /*backing_store=*/false) < 0 ||
      H5Pset_file_image(fapl.get(), const_cast<std::byte*>(image.data()), image.size()) < 0) {
    return LibraryError(fmt::format("{}: cannot set up an in-memory file image", name));
  }
  // The name only identifies the image; it must differ from a file libhdf5 may still track.
  const std::string image_name = name + " (in-memory image)";
  hid_t id = H5Fopen(image_name.c_str(), H5F_ACC_RDONLY, fapl.get());
  if (id < 0) {
    const std::string msg = TakeLibraryErrorMessage();
    return DataLossError("{}: not a readable HDF5 file: {}", name,
                         msg.empty() ? "HDF5 cannot open it" : msg);
  }
  return Handle(id);
}

}  // namespace kerchunk::hdf5
