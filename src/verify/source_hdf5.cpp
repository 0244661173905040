// HDF5 / NetCDF-4 files through libhdf5: chunk locations from the library's own chunk index
// (H5Dget_chunk_info*) and values from H5Dread, which applies every filter itself.
#include <fmt/format.h>

#include <map>

#include "kerchunk/hdf5/h5_library.h"
#include "verify/source.h"

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
  hdf5::SilenceLibraryErrors();
  KERCHUNK_ASSIGN_OR_RETURN(Handle file, hdf5::OpenFileReadOnly(path));
  return std::unique_ptr<SourceFile>(std::make_unique<Hdf5File>(std::move(file)));
}

}  // namespace kerchunk::verify::internal
