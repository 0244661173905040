// The original files as their own libraries read them, the oracle of --source, and what a CF
// reader makes of the values on either side.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <mutex>

#include "hdf5/h5_library.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/util/byte_reader.h"
#include "refs/zarr_dtype.h"
#include "verify/chunks.h"
#include "verify/netcdf_api.h"
#include "verify/remote_file.h"

namespace kerchunk::verify::internal {

Result<std::unique_ptr<SourceFile>> OpenSourceFile(const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(FileFormat format, DetectFileFormat(path));
  switch (format) {
    case FileFormat::kHdf5:
      return OpenHdf5Source(path);
    case FileFormat::kNetcdf3:
      return OpenNetcdf3Source(path);
    case FileFormat::kUnknown:
      break;
  }
  return UnsupportedError("{} is neither an HDF5 nor a NetCDF-3 file: no library to compare with",
                          path);
}

std::shared_ptr<SourceFiles::Slot> SourceFiles::Acquire(uint32_t url) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = open_.try_emplace(url);
  if (inserted) it->second = std::make_shared<Slot>();
  recent_.remove(url);
  recent_.push_front(url);
  std::shared_ptr<Slot> slot = it->second;
  // Closing a file someone still uses is safe: they hold the slot until they are done.
  while (recent_.size() > max_open_) {
    open_.erase(recent_.back());
    recent_.pop_back();
  }
  return slot;
}

Status SourceFiles::With(uint32_t url, const std::string& array,
                         const std::function<Status(SourceDataset&)>& fn) {
  {
    std::lock_guard lock(mutex_);
    if (auto failed = failed_.find(url); failed != failed_.end()) return failed->second;
  }
  std::shared_ptr<Slot> slot = Acquire(url);
  std::lock_guard lock(slot->mutex);
  if (!slot->file && slot->open_error.ok()) {
    const ResolvedFile& f = files_.by_url[url];
    Result<std::unique_ptr<SourceFile>> file =
        f.remote ? OpenRemoteSourceFile(urls_[url], *files_.access) : OpenSourceFile(f.path);
    if (file.ok()) {
      slot->file = *std::move(file);
    } else {
      slot->open_error = file.status();
      std::lock_guard failed_lock(mutex_);
      failed_.emplace(url, slot->open_error);
    }
  }
  if (!slot->open_error.ok()) return slot->open_error;
  Result<SourceDataset*> dataset = slot->file->Dataset(array);
  Status status = dataset.ok() ? fn(**dataset) : dataset.status();
  // A remote file's bytes that could not be fetched read as zeros: its fetch error, not what
  // the library made of the zeros, is the problem.
  if (Status fetch = slot->file->status(); !fetch.ok()) return fetch;
  return status;
}

}  // namespace kerchunk::verify::internal

// HDF5 / NetCDF-4 files through libhdf5: chunk locations from the library's own chunk index
// (H5Dget_chunk_info*) and values from H5Dread, which applies every filter itself.
namespace kerchunk::verify::internal {
namespace {

using hdf5::Check;
using hdf5::Handle;

// A memory type with the zarr dtype's size and byte order. Integers and floats get a standard
// type so libhdf5 converts from whatever the file holds (n-bit, other orders); anything else
// is read with the file's own type, which must then have the dtype's size.
Result<Handle> MemoryType(hid_t file_type, const DtypeInfo& dtype) {
  const H5T_class_t cls = H5Tget_class(file_type);
  const bool numeric = (dtype.kind == 'i' || dtype.kind == 'u' || dtype.kind == 'f') &&
                       (cls == H5T_INTEGER || cls == H5T_FLOAT);
  const bool big = dtype.order == '>';
  if (numeric) {
    hid_t base = H5I_INVALID_HID;
    if (dtype.kind == 'f') {
      if (dtype.itemsize == 4) base = big ? H5T_IEEE_F32BE : H5T_IEEE_F32LE;
      if (dtype.itemsize == 8) base = big ? H5T_IEEE_F64BE : H5T_IEEE_F64LE;
    } else {
      const bool u = dtype.kind == 'u';
      switch (dtype.itemsize) {
        case 1:
          base = u ? H5T_STD_U8LE : H5T_STD_I8LE;
          break;
        case 2:
          base = u ? (big ? H5T_STD_U16BE : H5T_STD_U16LE) : (big ? H5T_STD_I16BE : H5T_STD_I16LE);
          break;
        case 4:
          base = u ? (big ? H5T_STD_U32BE : H5T_STD_U32LE) : (big ? H5T_STD_I32BE : H5T_STD_I32LE);
          break;
        case 8:
          base = u ? (big ? H5T_STD_U64BE : H5T_STD_U64LE) : (big ? H5T_STD_I64BE : H5T_STD_I64LE);
          break;
        default:
          break;
      }
    }
    if (base != H5I_INVALID_HID) return Check(H5Tcopy(base), "H5Tcopy");
  }
  if (H5Tget_size(file_type) != dtype.itemsize) {
    return UnsupportedError("the HDF5 type has {} bytes, the zarr dtype {}", H5Tget_size(file_type),
                            dtype.itemsize);
  }
  return Check(H5Tcopy(file_type), "H5Tcopy");
}

std::vector<hsize_t> ToHsize(std::span<const uint64_t> v) { return {v.begin(), v.end()}; }

class Hdf5Dataset final : public SourceDataset {
 public:
  static Result<std::unique_ptr<Hdf5Dataset>> Open(hid_t file, const std::string& name);

  std::string Describe() const override { return "HDF5 dataset " + name_; }
  const std::vector<uint64_t>& shape() const override { return shape_; }
  bool fletcher32() const override { return fletcher32_; }

  Result<std::optional<StoredLocation>> Locate(std::span<const uint64_t> start) override {
    if (layout_ == H5D_CONTIGUOUS) {
      for (uint64_t s : start) {
        if (s != 0) return std::optional<StoredLocation>();
      }
      const haddr_t address = H5Dget_offset(dataset_.get());
      H5Eclear2(H5E_DEFAULT);
      StoredLocation loc;
      loc.allocated = address != HADDR_UNDEF;
      loc.offset = loc.allocated ? address : 0;
      loc.size = H5Dget_storage_size(dataset_.get());
      return std::optional<StoredLocation>(loc);
    }
    if (layout_ != H5D_CHUNKED) return std::optional<StoredLocation>();
    std::vector<hsize_t> offset = ToHsize(start);
    unsigned mask = 0;
    haddr_t address = HADDR_UNDEF;
    hsize_t size = 0;
    KERCHUNK_RETURN_IF_ERROR(
        Check(H5Dget_chunk_info_by_coord(dataset_.get(), offset.data(), &mask, &address, &size),
              fmt::format("H5Dget_chunk_info_by_coord of {}", name_)));
    StoredLocation loc;
    loc.allocated = address != HADDR_UNDEF;
    loc.offset = loc.allocated ? address : 0;
    loc.size = size;
    loc.filter_mask = mask;
    return std::optional<StoredLocation>(loc);
  }

  Result<std::optional<uint64_t>> CountChunks() override {
    if (layout_ != H5D_CHUNKED) return std::optional<uint64_t>();
    // libhdf5 1.10 rejects H5S_ALL here: it wants the dataset's own space.
    KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Dget_space(dataset_.get()), "H5Dget_space"));
    hsize_t n = 0;
    KERCHUNK_RETURN_IF_ERROR(Check(H5Dget_num_chunks(dataset_.get(), space.get(), &n),
                                   fmt::format("H5Dget_num_chunks of {}", name_)));
    return std::optional<uint64_t>(n);
  }

  Result<std::optional<std::vector<uint64_t>>> FindChunkAt(uint64_t offset,
                                                           uint64_t limit) override {
    KERCHUNK_ASSIGN_OR_RETURN(std::optional<uint64_t> count, CountChunks());
    if (!count) return std::optional<std::vector<uint64_t>>();
    std::vector<hsize_t> coords(shape_.size());
    KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Dget_space(dataset_.get()), "H5Dget_space"));
    for (hsize_t i = 0; i < std::min(*count, limit); ++i) {
      unsigned mask = 0;
      haddr_t address = HADDR_UNDEF;
      hsize_t size = 0;
      KERCHUNK_RETURN_IF_ERROR(Check(
          H5Dget_chunk_info(dataset_.get(), space.get(), i, coords.data(), &mask, &address, &size),
          fmt::format("H5Dget_chunk_info of {}", name_)));
      if (address == offset) {
        return std::optional<std::vector<uint64_t>>(std::in_place, coords.begin(), coords.end());
      }
    }
    return std::optional<std::vector<uint64_t>>();
  }

  Status Read(std::span<const uint64_t> start, std::span<const uint64_t> count,
              const DtypeInfo& dtype, std::string& out) override {
    KERCHUNK_ASSIGN_OR_RETURN(Handle memtype, MemoryType(type_.get(), dtype));
    uint64_t elements = 1;
    for (uint64_t c : count) elements *= c;
    out.assign(elements * dtype.itemsize, '\0');
    return ReadWith(memtype.get(), start, count, out.data());
  }

  Result<CfDecoding> Decoding() override {
    if (!decoding_) {
      decoding_ = SourceDecoding([&](const char* name) { return NumberAttribute(name); },
                                 [&](const char* name) { return TextAttribute(name); });
    }
    return *decoding_;
  }

  Result<std::vector<std::optional<std::string>>> ReadStrings(
      std::span<const uint64_t> start, std::span<const uint64_t> count) override {
    if (H5Tget_class(type_.get()) != H5T_STRING || H5Tis_variable_str(type_.get()) <= 0) {
      return UnsupportedError("{} does not hold variable-length strings", name_);
    }
    KERCHUNK_ASSIGN_OR_RETURN(Handle memtype, Check(H5Tcopy(H5T_C_S1), "H5Tcopy"));
    KERCHUNK_RETURN_IF_ERROR(Check(H5Tset_size(memtype.get(), H5T_VARIABLE), "H5Tset_size"));
    KERCHUNK_RETURN_IF_ERROR(
        Check(H5Tset_cset(memtype.get(), H5Tget_cset(type_.get())), "H5Tset_cset"));
    uint64_t elements = 1;
    for (uint64_t c : count) elements *= c;
    std::vector<char*> pointers(elements, nullptr);
    KERCHUNK_RETURN_IF_ERROR(ReadWith(memtype.get(), start, count, pointers.data()));
    std::vector<std::optional<std::string>> values;
    values.reserve(elements);
    for (char* p : pointers) {
      values.push_back(p ? std::optional<std::string>(p) : std::nullopt);
      H5free_memory(p);
    }
    return values;
  }

 private:
  Status ReadWith(hid_t memtype, std::span<const uint64_t> start, std::span<const uint64_t> count,
                  void* buffer) {
    if (!missing_filter_.empty()) return UnsupportedError("{}", missing_filter_);
    if (shape_.empty()) {
      return Check(H5Dread(dataset_.get(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer),
                   fmt::format("H5Dread of {}", name_));
    }
    std::vector<hsize_t> s = ToHsize(start), c = ToHsize(count);
    KERCHUNK_ASSIGN_OR_RETURN(Handle file_space,
                              Check(H5Dget_space(dataset_.get()), "H5Dget_space"));
    KERCHUNK_RETURN_IF_ERROR(Check(
        H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, s.data(), nullptr, c.data(), nullptr),
        fmt::format("selecting elements of {}", name_)));
    KERCHUNK_ASSIGN_OR_RETURN(
        Handle mem_space,
        Check(H5Screate_simple(static_cast<int>(c.size()), c.data(), nullptr), "H5Screate_simple"));
    return Check(
        H5Dread(dataset_.get(), memtype, mem_space.get(), file_space.get(), H5P_DEFAULT, buffer),
        fmt::format("H5Dread of {}", name_));
  }

  // A numeric attribute's values as doubles; empty when absent or not numeric.
  std::vector<double> NumberAttribute(const char* name) {
    std::vector<double> values;
    if (H5Aexists(dataset_.get(), name) > 0) {
      Handle attr(H5Aopen(dataset_.get(), name, H5P_DEFAULT));
      Handle type(attr.valid() ? H5Aget_type(attr.get()) : H5I_INVALID_HID);
      Handle space(attr.valid() ? H5Aget_space(attr.get()) : H5I_INVALID_HID);
      const H5T_class_t cls = type.valid() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
      const hssize_t n = space.valid() ? H5Sget_simple_extent_npoints(space.get()) : 0;
      if ((cls == H5T_INTEGER || cls == H5T_FLOAT) && n > 0) {
        values.resize(static_cast<size_t>(n));
        if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, values.data()) < 0) values.clear();
      }
    }
    H5Eclear2(H5E_DEFAULT);
    return values;
  }

  // A scalar string attribute; empty when absent or not a string.
  std::string TextAttribute(const char* name) {
    std::string text;
    if (H5Aexists(dataset_.get(), name) > 0) {
      Handle attr(H5Aopen(dataset_.get(), name, H5P_DEFAULT));
      Handle type(attr.valid() ? H5Aget_type(attr.get()) : H5I_INVALID_HID);
      if (type.valid() && H5Tget_class(type.get()) == H5T_STRING) {
        Handle memtype(H5Tcopy(H5T_C_S1));
        // libhdf5 converts no strings between character sets (netCDF-C writes UTF-8).
        H5Tset_cset(memtype.get(), H5Tget_cset(type.get()));
        if (H5Tis_variable_str(type.get()) > 0) {
          char* p = nullptr;
          H5Tset_size(memtype.get(), H5T_VARIABLE);
          if (H5Aread(attr.get(), memtype.get(), &p) >= 0 && p) text = p;
          H5free_memory(p);
        } else {
          std::string buffer(H5Tget_size(type.get()) + 1, '\0');
          H5Tset_size(memtype.get(), buffer.size());
          if (H5Aread(attr.get(), memtype.get(), buffer.data()) >= 0) text = buffer.c_str();
        }
      }
    }
    H5Eclear2(H5E_DEFAULT);
    return text;
  }

  std::string name_;
  Handle dataset_;
  Handle type_;
  std::vector<uint64_t> shape_;
  H5D_layout_t layout_ = H5D_CONTIGUOUS;
  bool fletcher32_ = false;
  std::string missing_filter_;  // why libhdf5 cannot decode the chunks, if it cannot
  std::optional<CfDecoding> decoding_;
};

Result<std::unique_ptr<Hdf5Dataset>> Hdf5Dataset::Open(hid_t file, const std::string& name) {
  auto d = std::make_unique<Hdf5Dataset>();
  d->name_ = name;
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return NotFoundError("the file has no HDF5 dataset {}", name);
  }
  KERCHUNK_ASSIGN_OR_RETURN(d->dataset_, Check(H5Dopen2(file, name.c_str(), H5P_DEFAULT),
                                               "opening HDF5 dataset " + name));
  KERCHUNK_ASSIGN_OR_RETURN(d->type_, Check(H5Dget_type(d->dataset_.get()), "H5Dget_type"));
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Dget_space(d->dataset_.get()), "H5Dget_space"));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) return hdf5::LibraryError("H5Sget_simple_extent_ndims of " + name);
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  if (rank > 0 && H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) < 0) {
    return hdf5::LibraryError("H5Sget_simple_extent_dims of " + name);
  }
  d->shape_.assign(dims.begin(), dims.end());
  KERCHUNK_ASSIGN_OR_RETURN(Handle dcpl,
                            Check(H5Dget_create_plist(d->dataset_.get()), "H5Dget_create_plist"));
  d->layout_ = H5Pget_layout(dcpl.get());
  const int filters = H5Pget_nfilters(dcpl.get());
  for (int i = 0; i < filters; ++i) {
    unsigned flags = 0, config = 0;
    size_t n = 0;
    char filter_name[64] = {};
    const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &n,
                                           nullptr, sizeof filter_name, filter_name, &config);
    if (id == H5Z_FILTER_FLETCHER32) d->fletcher32_ = true;
    // Without the filter (a plugin that is not installed) libhdf5 cannot read the values; that
    // is a limit of this installation, not a problem of the index.
    if (id >= 0 && H5Zfilter_avail(id) <= 0 && d->missing_filter_.empty()) {
      d->missing_filter_ = fmt::format("libhdf5 here has no plugin for filter {} (id {})",
                                       filter_name[0] ? filter_name : "unknown", id);
    }
  }
  H5Eclear2(H5E_DEFAULT);
  return d;
}

class Hdf5File final : public SourceFile {
 public:
  explicit Hdf5File(Handle file) : file_(std::move(file)) {}
  Result<SourceDataset*> Dataset(const std::string& array_path) override {
    auto it = datasets_.find(array_path);
    if (it == datasets_.end()) {
      KERCHUNK_ASSIGN_OR_RETURN(std::unique_ptr<Hdf5Dataset> d,
                                Hdf5Dataset::Open(file_.get(), "/" + array_path));
      it = datasets_.emplace(array_path, std::move(d)).first;
    }
    return static_cast<SourceDataset*>(it->second.get());
  }

 private:
  Handle file_;
  std::map<std::string, std::unique_ptr<Hdf5Dataset>> datasets_;
};

}  // namespace

Result<std::unique_ptr<SourceFile>> OpenHdf5Source(const std::string& path) {
  KERCHUNK_RETURN_IF_ERROR(hdf5::PrepareLibrary());
  KERCHUNK_ASSIGN_OR_RETURN(Handle file, hdf5::OpenFileReadOnly(path));
  return std::unique_ptr<SourceFile>(std::make_unique<Hdf5File>(std::move(file)));
}

Result<std::unique_ptr<SourceFile>> OpenHdf5SourceImage(std::span<const std::byte> image,
                                                        const std::string& name) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle file, OpenHdf5InPlace(image, name));
  return std::unique_ptr<SourceFile>(std::make_unique<Hdf5File>(std::move(file)));
}

}  // namespace kerchunk::verify::internal

// NetCDF-3 files through netCDF-C (nc_get_vara): the values the reference library reads for a
// variable's elements. NetCDF-3 has no chunk index, so only values are compared.
namespace kerchunk::verify::internal {
namespace {

// netCDF-C is not thread-safe, not even for different files.
std::mutex& NetcdfMutex() {
  static std::mutex mutex;
  return mutex;
}

Status NcCheck(int status, std::string_view what) {
  if (status == NC_NOERR) return OkStatus();
  return DataLossError("{}: {}", what, nc_strerror(status));
}

size_t ExternalSize(nc_type type) {
  switch (type) {
    case NC_BYTE:
    case NC_CHAR:
    case NC_UBYTE:
      return 1;
    case NC_SHORT:
    case NC_USHORT:
      return 2;
    case NC_INT:
    case NC_UINT:
    case NC_FLOAT:
      return 4;
    case NC_DOUBLE:
    case NC_INT64:
    case NC_UINT64:
      return 8;
    default:
      return 0;
  }
}

// nc_get_vara returns native byte order; zarr arrays of NetCDF-3 files are big-endian.
void ToByteOrder(std::string& bytes, size_t itemsize, char order) {
  const bool want_big = order == '>';
  if (itemsize <= 1 || want_big == (std::endian::native == std::endian::big)) return;
  for (size_t i = 0; i + itemsize <= bytes.size(); i += itemsize) {
    std::reverse(bytes.begin() + static_cast<ptrdiff_t>(i),
                 bytes.begin() + static_cast<ptrdiff_t>(i + itemsize));
  }
}

class Netcdf3Variable final : public SourceDataset {
 public:
  Netcdf3Variable(int ncid, int varid, std::string name, nc_type type, std::vector<uint64_t> shape)
      : ncid_(ncid), varid_(varid), name_(std::move(name)), type_(type), shape_(std::move(shape)) {}

  std::string Describe() const override { return "netCDF variable " + name_; }
  const std::vector<uint64_t>& shape() const override { return shape_; }
  Result<std::optional<StoredLocation>> Locate(std::span<const uint64_t>) override {
    return std::optional<StoredLocation>();
  }
  Result<std::optional<uint64_t>> CountChunks() override { return std::optional<uint64_t>(); }
  Result<std::optional<std::vector<uint64_t>>> FindChunkAt(uint64_t, uint64_t) override {
    return std::optional<std::vector<uint64_t>>();
  }

  Status Read(std::span<const uint64_t> start, std::span<const uint64_t> count,
              const DtypeInfo& dtype, std::string& out) override {
    const size_t size = ExternalSize(type_);
    if (size != dtype.itemsize) {
      return UnsupportedError("netCDF variable {} has {}-byte values, the zarr dtype {}", name_,
                              size, dtype.itemsize);
    }
    std::vector<size_t> s(start.begin(), start.end()), c(count.begin(), count.end());
    uint64_t elements = 1;
    for (uint64_t n : count) elements *= n;
    out.assign(elements * size, '\0');
    {
      std::lock_guard lock(NetcdfMutex());
      KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_get_vara(ncid_, varid_, s.data(), c.data(), out.data()),
                                       fmt::format("nc_get_vara of {}", name_)));
    }
    ToByteOrder(out, size, dtype.order);
    return OkStatus();
  }

  Result<CfDecoding> Decoding() override {
    if (decoding_) return *decoding_;
    std::lock_guard lock(NetcdfMutex());
    decoding_ = SourceDecoding([&](const char* name) { return NumberAttribute(name); },
                               [&](const char* name) { return TextAttribute(name); });
    return *decoding_;
  }

  Result<std::vector<std::optional<std::string>>> ReadStrings(std::span<const uint64_t>,
                                                              std::span<const uint64_t>) override {
    return UnsupportedError("NetCDF-3 has no variable-length strings");
  }

 private:
  // A numeric attribute's values as doubles; empty when absent or text. Needs NetcdfMutex.
  std::vector<double> NumberAttribute(const char* name) {
    nc_type type = NC_NAT;
    size_t length = 0;
    if (nc_inq_att(ncid_, varid_, name, &type, &length) != NC_NOERR || type == NC_CHAR ||
        length == 0) {
      return {};
    }
    std::vector<double> values(length);
    if (nc_get_att_double(ncid_, varid_, name, values.data()) != NC_NOERR) return {};
    return values;
  }

  // A text attribute (up to its first NUL, as netCDF readers show it); empty when absent or
  // not text. Needs NetcdfMutex.
  std::string TextAttribute(const char* name) {
    nc_type type = NC_NAT;
    size_t length = 0;
    if (nc_inq_att(ncid_, varid_, name, &type, &length) != NC_NOERR || type != NC_CHAR) return {};
    std::string text(length, '\0');
    if (nc_get_att_text(ncid_, varid_, name, text.data()) != NC_NOERR) return {};
    return text.c_str();
  }

  int ncid_;
  int varid_;
  std::string name_;
  nc_type type_;
  std::vector<uint64_t> shape_;
  std::optional<CfDecoding> decoding_;
};

class Netcdf3File final : public SourceFile {
 public:
  explicit Netcdf3File(int ncid) : ncid_(ncid) {}
  ~Netcdf3File() override {
    std::lock_guard lock(NetcdfMutex());
    nc_close(ncid_);
  }

  Result<SourceDataset*> Dataset(const std::string& array_path) override {
    auto it = variables_.find(array_path);
    if (it != variables_.end()) return static_cast<SourceDataset*>(it->second.get());
    std::lock_guard lock(NetcdfMutex());
    int varid = 0;
    if (nc_inq_varid(ncid_, array_path.c_str(), &varid) != NC_NOERR) {
      return NotFoundError("the file has no netCDF variable {}", array_path);
    }
    nc_type type = NC_NAT;
    int ndims = 0;
    int dimids[NC_MAX_VAR_DIMS];
    KERCHUNK_RETURN_IF_ERROR(
        NcCheck(nc_inq_var(ncid_, varid, nullptr, &type, &ndims, dimids, nullptr),
                "nc_inq_var of " + array_path));
    std::vector<uint64_t> shape;
    for (int d = 0; d < ndims; ++d) {
      size_t length = 0;
      KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_inq_dimlen(ncid_, dimids[d], &length), "nc_inq_dimlen"));
      shape.push_back(length);
    }
    auto v = std::make_unique<Netcdf3Variable>(ncid_, varid, array_path, type, std::move(shape));
    it = variables_.emplace(array_path, std::move(v)).first;
    return static_cast<SourceDataset*>(it->second.get());
  }

 private:
  int ncid_;
  std::map<std::string, std::unique_ptr<Netcdf3Variable>> variables_;
};

}  // namespace

Result<std::unique_ptr<SourceFile>> OpenNetcdf3Source(const std::string& path) {
  KERCHUNK_RETURN_IF_ERROR(netcdf::LoadLibrary());
  std::lock_guard lock(NetcdfMutex());
  int ncid = -1;
  KERCHUNK_RETURN_IF_ERROR(
      NcCheck(nc_open(path.c_str(), NC_NOWRITE, &ncid), "netCDF-C cannot open " + path));
  return std::unique_ptr<SourceFile>(std::make_unique<Netcdf3File>(ncid));
}

Result<std::unique_ptr<SourceFile>> OpenNetcdf3SourceImage(std::span<const std::byte> image,
                                                           const std::string& name) {
  KERCHUNK_RETURN_IF_ERROR(netcdf::LoadLibrary());
  std::lock_guard lock(NetcdfMutex());
  int ncid = -1;
  // Opened read-only, netCDF-C reads the memory and never writes it.
  KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_open_mem(name.c_str(), NC_NOWRITE, image.size(),
                                               const_cast<std::byte*>(image.data()), &ncid),
                                   "netCDF-C cannot open " + name));
  return std::unique_ptr<SourceFile>(std::make_unique<Netcdf3File>(ncid));
}

}  // namespace kerchunk::verify::internal

namespace kerchunk::verify::internal {
namespace {

std::optional<double> Number(const json::Value* v) {
  if (v && v->is_number()) return v->as_double();
  if (v && v->is_string() && v->as_string() == "NaN") return NAN;
  if (v && v->is_array() && v->as_array().size() == 1) return Number(&v->as_array()[0]);
  return std::nullopt;
}

bool Same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

std::string Shown(double d) {
  json::Value v = json::Value::Double(d);
  return v.Dump();
}

}  // namespace

std::optional<double> CfDecoding::Decode(double x) const {
  if (fill_value && Same(x, *fill_value)) return std::nullopt;
  for (double m : missing_values) {
    if (Same(x, m)) return std::nullopt;
  }
  return x * scale_factor.value_or(1.0) + add_offset.value_or(0.0);
}

std::string CfDecoding::Describe() const {
  std::vector<std::string> parts;
  if (scale_factor) parts.push_back("scale_factor " + Shown(*scale_factor));
  if (add_offset) parts.push_back("add_offset " + Shown(*add_offset));
  if (fill_value) parts.push_back("_FillValue " + Shown(*fill_value));
  for (double m : missing_values) parts.push_back("missing_value " + Shown(m));
  if (is_unsigned) parts.push_back("_Unsigned true");
  // Units change what a reader shows only for times (numbers become dates); other units are
  // named by the units mismatch message.
  if (Time()) {
    parts.push_back(fmt::format("units \"{}\"", units));
    if (!calendar.empty()) parts.push_back(fmt::format("calendar \"{}\"", calendar));
  }
  if (parts.empty()) return "no CF attributes";
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::optional<CfTimeUnits> CfDecoding::Time() const {
  if (units.find(" since ") == std::string::npos) return std::nullopt;
  Result<CfCalendar> parsed_calendar = ParseCfCalendar(calendar);
  if (!parsed_calendar.ok()) return std::nullopt;
  Result<CfTimeUnits> time = ParseCfTimeUnits(units, *parsed_calendar);
  if (!time.ok()) return std::nullopt;
  return *time;
}

void InheritTimeAttributes(const CfDecoding& coordinate, CfDecoding& bounds) {
  if (!bounds.units.empty()) return;
  bounds.units = coordinate.units;
  if (bounds.calendar.empty()) bounds.calendar = coordinate.calendar;
}

CfDecoding IndexDecoding(const json::Value& attrs, const ZarrArrayMeta& meta) {
  CfDecoding d;
  auto find = [&](std::string_view name) { return attrs.is_object() ? attrs.Find(name) : nullptr; };
  d.scale_factor = Number(find("scale_factor"));
  d.add_offset = Number(find("add_offset"));
  d.fill_value = find("_FillValue") ? Number(find("_FillValue")) : Number(&meta.fill_value);
  if (const json::Value* m = find("missing_value")) {
    if (m->is_array()) {
      for (const json::Value& v : m->as_array()) {
        if (auto n = Number(&v)) d.missing_values.push_back(*n);
      }
    } else if (auto n = Number(m)) {
      d.missing_values.push_back(*n);
    }
  }
  auto text = [&](std::string_view name) {
    const json::Value* v = find(name);
    return v && v->is_string() ? v->as_string() : std::string();
  };
  d.is_unsigned = text("_Unsigned") == "true";
  d.units = text("units");
  d.calendar = text("calendar");
  return d;
}

CfDecoding SourceDecoding(const std::function<std::vector<double>(const char*)>& numbers,
                          const std::function<std::string(const char*)>& text) {
  auto single = [&](const char* name) {
    std::vector<double> v = numbers(name);
    return v.size() == 1 ? std::optional<double>(v[0]) : std::nullopt;
  };
  CfDecoding d;
  d.scale_factor = single("scale_factor");
  d.add_offset = single("add_offset");
  d.fill_value = single("_FillValue");
  d.missing_values = numbers("missing_value");
  d.is_unsigned = text("_Unsigned") == "true";
  d.units = text("units");
  d.calendar = text("calendar");
  return d;
}

}  // namespace kerchunk::verify::internal

namespace kerchunk::verify::internal {
namespace {

using kerchunk::internal::NumericType;

// Stored number `i` of `bytes` as a reader of `decoding` takes it (_Unsigned reinterprets
// signed integers).
double Load(const NumericType& type, const char* bytes, uint64_t i, const CfDecoding& decoding) {
  if (decoding.is_unsigned && type.kind == 'i') {
    uint64_t bits = type.LoadBits(bytes, i);
    if (type.size < 8) bits &= (uint64_t{1} << (8 * type.size)) - 1;
    return static_cast<double>(bits);
  }
  return type.LoadDouble(bytes, i);
}

// Readers compare stored numbers with _FillValue and missing_value cast to the variable's type
// (a float64 attribute 1e20 masks the float32 1e20 of a float32 variable).
void CastMaskValues(const NumericType& type, CfDecoding& d) {
  if (type.kind != 'f' || type.size != 4) return;
  auto cast = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  if (d.fill_value) d.fill_value = cast(*d.fill_value);
  for (double& m : d.missing_values) m = cast(m);
}

std::string Shown(const std::optional<double>& v) {
  return v ? json::Value::Double(*v).Dump() : std::string("masked");
}

// What a reader shows for one element: masked, a number, or (time units) an instant.
struct Reading {
  std::optional<double> value;   // after masking, scaling and offsetting
  long double instant_us = 0;    // with time units: microseconds after the calendar's day 0
  long double tolerance_us = 0;  // the rounding the stored type allows in the instant
};

// The element as `d` decodes it; `time` when `d` has CF time units. `epsilon` is the relative
// precision of the stored type: the combine that converted time units rounds once to it.
Reading Read(const CfDecoding& d, const std::optional<CfTimeUnits>& time, double stored,
             double epsilon) {
  Reading r{d.Decode(stored)};
  if (r.value && time) {
    const long double offset = static_cast<long double>(*r.value) * time->unit_us;
    r.instant_us = time->epoch_us + offset;
    r.tolerance_us = 4 * epsilon * std::fabs(offset);
  }
  return r;
}

bool Same(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return !a && !b;
  return *a == *b || (std::isnan(*a) && std::isnan(*b));
}

bool SameReading(const Reading& a, const Reading& b, bool time) {
  if (!time) return Same(a.value, b.value);
  if (!a.value || !b.value) return !a.value && !b.value;
  if (std::isnan(*a.value) || std::isnan(*b.value))
    return std::isnan(*a.value) == std::isnan(*b.value);
  // Microseconds are the finest unit cftime keeps.
  return std::fabs(a.instant_us - b.instant_us) <= 1 + a.tolerance_us + b.tolerance_us;
}

std::string ShownReading(const Reading& r, const CfDecoding& d, bool time) {
  if (!time || !r.value) return Shown(r.value);
  return fmt::format("{} {}", Shown(r.value), d.units);
}

// Units that make a reader show other kinds of values: a time on one side only, two calendars,
// or two units of which neither is a time ("K" and "degC"). Equal units or two time units in
// one calendar compare element by element instead.
std::optional<std::string> UnitsMismatch(const CfDecoding& index, const CfDecoding& own,
                                         const std::optional<CfTimeUnits>& index_time,
                                         const std::optional<CfTimeUnits>& own_time) {
  if (index_time && own_time) {
    if (index_time->calendar == own_time->calendar) return std::nullopt;
    return fmt::format("calendar \"{}\" in the index but \"{}\"",
                       CfCalendarName(index_time->calendar), CfCalendarName(own_time->calendar));
  }
  if (index.units == own.units ||
      (!index_time && !own_time && (index.units.empty() || own.units.empty()))) {
    return std::nullopt;
  }
  return fmt::format("units \"{}\" in the index but \"{}\"", index.units, own.units);
}

}  // namespace

bool TimesInOtherUnits(const CfDecoding& index, const CfDecoding& own) {
  const std::optional<CfTimeUnits> a = index.Time(), b = own.Time();
  return a && b && a->calendar == b->calendar && index.units != own.units;
}

Status CompareDecoded(SourceDataset& ds, const ArrayInfo& info, const CfDecoding& index,
                      CfDecoding own, const ChunkRegion& global, const ChunkRegion& local,
                      const std::string& decoded, const std::string& file_values,
                      const std::string& file, CaseLog& log, const std::string& key) {
  std::optional<NumericType> type = NumericType::Parse(info.meta->dtype);
  if (!type) return OkStatus();
  if (!own.fill_value) own.fill_value = index.fill_value;
  CfDecoding ours_decoding = index;
  CastMaskValues(*type, own);
  CastMaskValues(*type, ours_decoding);
  if (own == ours_decoding) return OkStatus();
  const std::optional<CfTimeUnits> our_time = ours_decoding.Time(), their_time = own.Time();
  if (std::optional<std::string> mismatch = UnitsMismatch(index, own, our_time, their_time)) {
    log.Fail(key, fmt::format("{}: a reader sees other values: {} of {} in {} ({}; index: {})", key,
                              *mismatch, ds.Describe(), file, own.Describe(), index.Describe()));
    return OkStatus();
  }
  const bool time = our_time && their_time;
  const double epsilon = type->kind == 'f' && type->size == 4 ? 0x1p-23 : 0x1p-52;
  uint64_t elements = 1;
  for (uint64_t c : local.count) elements *= c;
  for (uint64_t e = 0; e < elements; ++e) {
    const uint64_t at = ChunkOffsetOf(e, local.count, info.meta->chunks, type->size) / type->size;
    const Reading ours =
        Read(ours_decoding, our_time, Load(*type, decoded.data(), at, ours_decoding), epsilon);
    const Reading theirs = Read(own, their_time, Load(*type, file_values.data(), e, own), epsilon);
    if (SameReading(ours, theirs, time)) continue;
    std::vector<uint64_t> where = Unravel(e, local.count);
    for (size_t d = 0; d < where.size(); ++d) where[d] += global.start[d];
    log.Fail(key, fmt::format("{}: element ({}) reads as {} through the index's attributes ({}) "
                              "but as {} through those of {} in {} ({})",
                              key, fmt::join(where, ", "), ShownReading(ours, ours_decoding, time),
                              index.Describe(), ShownReading(theirs, own, time), ds.Describe(),
                              file, own.Describe()));
    return OkStatus();
  }
  return OkStatus();
}

}  // namespace kerchunk::verify::internal
