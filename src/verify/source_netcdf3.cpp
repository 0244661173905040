// NetCDF-3 files through netCDF-C (nc_get_vara): the values the reference library reads for a
// variable's elements. NetCDF-3 has no chunk index, so only values are compared.
#include <fmt/format.h>
#include <netcdf.h>

#include <bit>
#include <map>
#include <mutex>

#include "kerchunk/util/byte_reader.h"
#include "verify/source.h"

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
  std::lock_guard lock(NetcdfMutex());
  int ncid = -1;
  KERCHUNK_RETURN_IF_ERROR(
      NcCheck(nc_open(path.c_str(), NC_NOWRITE, &ncid), "netCDF-C cannot open " + path));
  return std::unique_ptr<SourceFile>(std::make_unique<Netcdf3File>(ncid));
}

}  // namespace kerchunk::verify::internal
