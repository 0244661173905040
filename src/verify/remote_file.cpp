// --source on remote files: the file's bytes through the same io::FileImage as a remote scan
// (the head in the first request, then blocks where the library reads), handed to libhdf5 or
// netCDF-C in memory. The library stays the oracle: none of the toolkit's parsers is involved.
#include "verify/remote_file.h"

#include <cstring>

#include "kerchunk/io/file_image.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/scan/source_scan.h"

namespace kerchunk::verify::internal {
namespace {

// libhdf5's file image callbacks that hand the core driver the image itself instead of copies
// (as H5LTopen_file_image does with H5LT_FILE_IMAGE_DONT_COPY, without linking hdf5_hl).
struct InPlace {
  void* data;
  size_t size;
};

void* ImageMalloc(size_t size, H5FD_file_image_op_t, void* udata) {
  auto* image = static_cast<InPlace*>(udata);
  return size == image->size ? image->data : nullptr;
}

void* ImageMemcpy(void* dest, const void* src, size_t size, H5FD_file_image_op_t, void* udata) {
  if (dest == src) return dest;
  // The image is read-only (and may be mapped so): never a destination.
  if (dest == static_cast<InPlace*>(udata)->data) return nullptr;
  return std::memcpy(dest, src, size);
}

void* ImageRealloc(void*, size_t, H5FD_file_image_op_t, void*) { return nullptr; }
herr_t ImageFree(void*, H5FD_file_image_op_t, void*) { return 0; }
void* UdataCopy(void* udata) { return new InPlace(*static_cast<InPlace*>(udata)); }
herr_t UdataFree(void* udata) {
  delete static_cast<InPlace*>(udata);
  return 0;
}

// A remote file open in its library, with the image it reads (which must outlive it).
class RemoteSourceFile final : public SourceFile {
 public:
  RemoteSourceFile(std::unique_ptr<io::FileImage> image, RemoteAccess& access)
      : image_(std::move(image)), access_(access) {}
  ~RemoteSourceFile() override {
    file_.reset();  // the library lets go of the image first
    access_.Account(image_->stats());
  }
  Status Open(const std::string& url) {
    const FormatScanner* scanner = FindFormatScanner(image_->bytes());
    if (Status s = image_->status(); !s.ok()) return s;
    // netCDF-C takes a name with a scheme for a DAP server it would ask itself: the image is
    // named by the URL's last part there (errors are annotated with the whole URL below).
    const std::string base = url.substr(url.rfind('/') + 1);
    Result<std::unique_ptr<SourceFile>> file =
        scanner == &Hdf5FormatScanner()      ? OpenHdf5SourceImage(image_->bytes(), url)
        : scanner == &Netcdf3FormatScanner() ? OpenNetcdf3SourceImage(image_->bytes(), base)
                                             : UnsupportedError(
                                                   "{} is neither an HDF5 nor a NetCDF-3 file: "
                                                   "no library to compare with",
                                                   url);
    if (Status s = image_->status(); !s.ok()) return s;
    if (!file.ok()) {
      Status status = file.status();
      if (scanner == &Netcdf3FormatScanner()) status.Annotate(url);
      return status;
    }
    file_ = *std::move(file);
    return OkStatus();
  }
  Result<SourceDataset*> Dataset(const std::string& array_path) override {
    return file_->Dataset(array_path);
  }
  Status status() const override { return image_->status(); }

 private:
  std::unique_ptr<io::FileImage> image_;
  RemoteAccess& access_;
  std::unique_ptr<SourceFile> file_;
};

}  // namespace

Result<hdf5::Handle> OpenHdf5InPlace(std::span<const std::byte> image, const std::string& name) {
  KERCHUNK_RETURN_IF_ERROR(hdf5::PrepareLibrary());
  KERCHUNK_ASSIGN_OR_RETURN(hdf5::Handle fapl, hdf5::Check(H5Pcreate(H5P_FILE_ACCESS), name));
  InPlace udata{const_cast<std::byte*>(image.data()), image.size()};
  H5FD_file_image_callbacks_t callbacks = {ImageMalloc, ImageMemcpy, ImageRealloc, ImageFree,
                                           UdataCopy,   UdataFree,   &udata};
  if (H5Pset_fapl_core(fapl.get(), 1 << 20, /*backing_store=*/false) < 0 ||
      H5Pset_file_image_callbacks(fapl.get(), &callbacks) < 0 ||
      H5Pset_file_image(fapl.get(), udata.data, udata.size) < 0) {
    return hdf5::LibraryError(fmt::format("{}: cannot set up an in-memory file image", name));
  }
  // The name only identifies the image; it must differ from a file libhdf5 may still track.
  const std::string image_name = name + " (in-memory image)";
  const hid_t id = H5Fopen(image_name.c_str(), H5F_ACC_RDONLY, fapl.get());
  if (id < 0) {
    const std::string message = hdf5::TakeLibraryErrorMessage();
    return DataLossError("{}: not a readable HDF5 file: {}", name,
                         message.empty() ? "HDF5 cannot open it" : message);
  }
  return hdf5::Handle(id);
}

Result<std::unique_ptr<SourceFile>> OpenRemoteSourceFile(const std::string& url,
                                                         RemoteAccess& access) {
  KERCHUNK_ASSIGN_OR_RETURN(std::unique_ptr<io::ByteSource> source, access.Open(url));
  KERCHUNK_ASSIGN_OR_RETURN(std::unique_ptr<io::FileImage> image,
                            io::FileImage::Open(std::move(source), {.head_bytes = kRemoteHeadBytes,
                                                                    .prefetch_head = true}));
  auto file = std::make_unique<RemoteSourceFile>(std::move(image), access);
  KERCHUNK_RETURN_IF_ERROR(file->Open(url));
  return std::unique_ptr<SourceFile>(std::move(file));
}

}  // namespace kerchunk::verify::internal
