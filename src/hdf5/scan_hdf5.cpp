// ScanHdf5File: one HDF5 / NetCDF-4 file -> Kerchunk references, as Python kerchunk's
// SingleHdf5ToZarr(spec=1, vlen_encode="embed") but continuing where it fails. By default the
// native reader reads everything, without libhdf5 and without a lock, so files scan in parallel;
// the libhdf5-based translator (groups, attributes, types, fill values read by libhdf5, chunks by
// the native walker) is the test oracle, `--hdf5-library`, and the fallback for the few files
// the native translator cannot express yet.
#include "kerchunk/hdf5/scan_hdf5.h"

#include <fmt/format.h>

#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "hdf5/dataset_translator.h"
#include "hdf5/h5_library.h"
#include "hdf5/native_translator.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk {
namespace {

using hdf5::Check;
using hdf5::Handle;

/// One object reached through hard links, in h5py's visititems order.
struct VisitedObject {
  std::string path;  // without leading "/"
  H5O_type_t type = H5O_TYPE_UNKNOWN;
  uint64_t address = 0;
};

uint64_t ObjectAddress(const H5O_info_t* info) {
#if H5_VERSION_GE(1, 12, 0)
  haddr_t addr = HADDR_UNDEF;
  H5VLnative_token_to_addr(H5I_INVALID_HID, info->token, &addr);
  return addr;
#else
  return info->addr;
#endif
}

// Every object once, by name in increasing order: H5Ovisit is what h5py's visititems calls; it
// follows hard links only and reports an object reachable by several links once.
Result<std::vector<VisitedObject>> VisitObjects(hid_t file) {
  std::vector<VisitedObject> objects;
  auto visit = [](hid_t, const char* name, const H5O_info_t* info, void* data) -> herr_t {
    auto* out = static_cast<std::vector<VisitedObject>*>(data);
    out->push_back({name, info->type, ObjectAddress(info)});
    return 0;
  };
#if H5_VERSION_GE(1, 12, 0)
  const herr_t rc = H5Ovisit3(file, H5_INDEX_NAME, H5_ITER_INC, visit, &objects, H5O_INFO_BASIC);
#else
  const herr_t rc = H5Ovisit2(file, H5_INDEX_NAME, H5_ITER_INC, visit, &objects, H5O_INFO_BASIC);
#endif
  if (rc < 0) return hdf5::LibraryError("cannot list the objects of the file");
  return objects;
}

// Whether `dataset` is a netCDF-4 dimension (an HDF5 dimension scale: attribute CLASS =
// "DIMENSION_SCALE") whose first dimension can grow: a netCDF unlimited dimension, which
// scan concatenates along by default.
bool IsUnlimitedDimensionScale(hid_t dataset) {
  if (H5Aexists(dataset, "CLASS") <= 0) return false;
  Result<Handle> space = Check(H5Dget_space(dataset), "H5Dget_space");
  if (!space.ok() || H5Sget_simple_extent_ndims(space->get()) != 1) return false;
  hsize_t dims[1] = {0}, max_dims[1] = {0};
  if (H5Sget_simple_extent_dims(space->get(), dims, max_dims) < 0) return false;
  if (max_dims[0] != H5S_UNLIMITED) return false;
  Result<Handle> attr = Check(H5Aopen(dataset, "CLASS", H5P_DEFAULT), "H5Aopen CLASS");
  if (!attr.ok()) return false;
  Result<Handle> type = Check(H5Tcopy(H5T_C_S1), "H5Tcopy");
  if (!type.ok() || H5Tset_size(type->get(), 16) < 0) return false;
  char value[17] = {};
  if (H5Aread(attr->get(), type->get(), value) < 0) return false;
  return std::string_view(value, strnlen(value, 16)) == "DIMENSION_SCALE";
}

Status TranslateObjects(hdf5::internal::TranslationContext& context, hid_t file) {
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<VisitedObject> objects, VisitObjects(file));
  for (VisitedObject& o : objects) {
    if (o.path == ".") o.path.clear();  // the root group
    context.object_paths.emplace(o.address, o.path);
  }
  for (const VisitedObject& o : objects) {
    if (o.type == H5O_TYPE_GROUP) {
      const char* name = o.path.empty() ? "/" : o.path.c_str();
      KERCHUNK_ASSIGN_OR_RETURN(Handle group, Check(H5Gopen2(file, name, H5P_DEFAULT),
                                                    fmt::format("cannot open group /{}", o.path)));
      KERCHUNK_RETURN_IF_ERROR(hdf5::internal::TranslateGroup(context, group.get(), o.path));
    } else if (o.type == H5O_TYPE_DATASET) {
      KERCHUNK_ASSIGN_OR_RETURN(Handle dataset,
                                Check(H5Dopen2(file, o.path.c_str(), H5P_DEFAULT),
                                      fmt::format("cannot open dataset /{}", o.path)));
      KERCHUNK_RETURN_IF_ERROR(
          hdf5::internal::TranslateDataset(context, dataset.get(), o.path, o.address));
      const bool in_root_group = o.path.find('/') == std::string::npos;
      if (in_root_group && IsUnlimitedDimensionScale(dataset.get())) {
        context.result->unlimited_dims.push_back(o.path);
      }
    }
    // Committed datatypes are not arrays.
  }
  return OkStatus();
}

// Opens `file` with libhdf5: the local file by its path, a remote file from a copy of its
// bytes (libhdf5's core driver reads the image, which fetches the whole of the remote file),
// its superblock status flags cleared as OpenFileReadOnly does for a file a writer left open.
Result<Handle> OpenWithLibrary(const FileBytes& file) {
  if (!file.local_path.empty()) return hdf5::OpenFileReadOnly(file.local_path, file.bytes);
  KERCHUNK_ASSIGN_OR_RETURN(std::string cleared,
                            hdf5::ClearSuperblockStatusFlags(file.bytes).Annotate(file.name));
  return hdf5::OpenImageReadOnly(std::as_bytes(std::span(cleared)), file.name);
}

// The libhdf5-based translation (the oracle).
Result<FileScanResult> ScanWithLibrary(const FileBytes& file, const FileScanOptions& options,
                                       const hdf5::File& native) {
#ifndef H5_HAVE_THREADSAFE
  // A libhdf5 built without thread safety must not be entered from two threads at once.
  static std::mutex library_mutex;
  std::lock_guard<std::mutex> lock(library_mutex);
#endif
  KERCHUNK_RETURN_IF_ERROR(hdf5::PrepareLibrary());
  KERCHUNK_ASSIGN_OR_RETURN(Handle handle, OpenWithLibrary(file));
  FileScanResult result;
  result.refs.urls.Intern(file.url);
  hdf5::internal::TranslationContext context;
  context.file_name = file.name;
  context.options = &options;
  context.native = &native;
  context.bytes = file.bytes;
  context.result = &result;
  Status status = TranslateObjects(context, handle.get());
  if (status.ok()) status = result.refs.Finalize();
  if (!status.ok()) {
    H5Eclear2(H5E_DEFAULT);
    return std::move(status).Annotate(file.name);
  }
  return result;
}

// Whether libhdf5 is worth a try where the native reader fails. Not on a file with a metadata
// cache image: the native reader reads its entries as libhdf5 does, but checks them, while
// libhdf5 1.10.8 does not verify the image's checksum and cannot close a file whose image holds
// extensible array entries (the process then crashes at exit).
bool LibraryMaySucceed(const hdf5::File& native) { return !native.has_metadata_cache_image(); }

// The native translation. Returns nullopt (and the reason) when the file needs libhdf5.
Result<std::optional<FileScanResult>> ScanNatively(const std::string& path, const std::string& url,
                                                   const FileScanOptions& options,
                                                   const hdf5::File& native, std::string& reason) {
  FileScanResult result;
  result.refs.urls.Intern(url);
  hdf5::internal::NativeContext context;
  context.file_name = path;
  context.options = &options;
  context.file = &native;
  context.result = &result;
  Status status = hdf5::internal::TranslateFileNative(context);
  if (!context.fallback_reason.empty()) {
    reason = std::move(context.fallback_reason);
    return std::optional<FileScanResult>();
  }
  if (!status.ok() && status.code() == StatusCode::kUnsupported && !context.policy_error &&
      LibraryMaySucceed(native)) {
    // A structure this reader does not read (e.g. a filtered fractal heap): libhdf5 may.
    reason = status.message();
    return std::optional<FileScanResult>();
  }
  if (status.ok()) status = result.refs.Finalize();
  if (!status.ok()) return std::move(status).Annotate(path);
  return std::optional(std::move(result));
}

// The native view of the file. Without a readable superblock the bytes are not HDF5; a metadata
// cache image that fails its checks is reported as such, and no fallback gets it: libhdf5 1.10.8
// does not verify the block's checksum and would read a corrupt entry as metadata.
Result<hdf5::File> OpenNative(std::span<const std::byte> bytes, const std::string& name) {
  if (auto superblock = hdf5::ReadSuperblock(bytes); !superblock.ok()) {
    return DataLossError("{}: not an HDF5 file: {}", name, superblock.status().message());
  }
  return hdf5::File::Open(bytes).Annotate(name);
}

// The scan of a whole HDF5 file: the native reader, with libhdf5 as oracle and fallback.
Result<FileScanResult> ScanHdf5Bytes(const FileBytes& file, const FileScanOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(hdf5::File native, OpenNative(file.bytes, file.name));
  if (options.hdf5_reader == Hdf5Reader::kLibrary) return ScanWithLibrary(file, options, native);
  std::string reason;
  auto attempt = ScanNatively(file.name, file.url, options, native, reason);
  if (attempt.ok() && *attempt) return std::move(**attempt);
  const bool only_native = options.hdf5_reader == Hdf5Reader::kNativeOnly;
  if (!attempt.ok()) {
    // A structure the native reader calls corrupt: libhdf5 gets its chance, so that no file the
    // library reads is refused; when it refuses too, the native error (with its byte address)
    // is the one reported.
    if (only_native || attempt.status().code() != StatusCode::kDataLoss ||
        !LibraryMaySucceed(native)) {
      return attempt.status();
    }
    auto library = ScanWithLibrary(file, options, native);
    if (!library.ok()) return attempt.status();
    reason = fmt::format("the native reader failed: {}", attempt.status().message());
    library->warnings.insert(library->warnings.begin(),
                             fmt::format("read with libhdf5: {}", reason));
    library->hdf5_fallback = std::move(reason);
    return library;
  }
  if (only_native) {
    return UnsupportedError("{}: the native HDF5 reader cannot translate this file: {}", file.name,
                            reason);
  }
  KERCHUNK_ASSIGN_OR_RETURN(FileScanResult fallback, ScanWithLibrary(file, options, native));
  fallback.warnings.insert(
      fallback.warnings.begin(),
      fmt::format("read with libhdf5: the native HDF5 reader cannot translate it: {}", reason));
  fallback.hdf5_fallback = std::move(reason);
  return fallback;
}

constexpr unsigned char kHdf5Signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

class Hdf5Scanner : public FormatScanner {
 public:
  std::string_view format_name() const override { return "HDF5"; }

  // HDF5 section II.A: the superblock is at 0 or, after a user block, at 512, 1024, 2048, ...
  bool Recognizes(std::span<const std::byte> file) const override {
    for (uint64_t offset = 0; offset < file.size(); offset = offset == 0 ? 512 : offset * 2) {
      if (file.size() - offset >= sizeof kHdf5Signature &&
          std::memcmp(file.data() + offset, kHdf5Signature, sizeof kHdf5Signature) == 0) {
        return true;
      }
    }
    return false;
  }

  Result<FileScanResult> Scan(const FileBytes& file,
                              const FileScanOptions& options) const override {
    return ScanHdf5Bytes(file, options);
  }
};

}  // namespace

const FormatScanner& Hdf5FormatScanner() {
  static const Hdf5Scanner scanner;
  return scanner;
}

Result<FileScanResult> ScanHdf5Image(std::span<const std::byte> image, const std::string& name,
                                     const std::string& url, const FileScanOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(hdf5::File native, OpenNative(image, name));
  std::string reason;
  KERCHUNK_ASSIGN_OR_RETURN(std::optional<FileScanResult> result,
                            ScanNatively(name, url, options, native, reason));
  if (result) return std::move(*result);
  return UnsupportedError("{}: the native HDF5 reader cannot translate this file: {}", name,
                          reason);
}

Result<FileScanResult> ScanHdf5File(const std::string& path, const std::string& url,
                                    const FileScanOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(MappedFile mapped, MappedFile::Open(path));
  return ScanHdf5Bytes({mapped.bytes(), path, url, path}, options);
}

}  // namespace kerchunk
