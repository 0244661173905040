#include "hdf5/chunk_oracle.h"

#include <fmt/ostream.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "hdf5/h5_library.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::testing {

using hdf5::Check;
using hdf5::Handle;

std::ostream& operator<<(std::ostream& os, const ChunkRecord& c) {
  os << "{(";
  for (size_t i = 0; i < c.coords.size(); ++i) os << (i ? "," : "") << c.coords[i];
  return os << ") offset " << c.offset << " size " << c.size << " mask " << c.mask << "}";
}

Result<std::vector<std::string>> ListChunkedDatasets(const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle file, hdf5::OpenFileReadOnly(path));
  std::vector<std::string> names;
  auto visit = [](hid_t root, const char* name, const H5O_info_t* info, void* data) -> herr_t {
    if (info->type != H5O_TYPE_DATASET) return 0;
    hid_t dset = H5Dopen2(root, name, H5P_DEFAULT);
    if (dset < 0) return 0;
    hid_t dcpl = H5Dget_create_plist(dset);
    if (dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED) {
      static_cast<std::vector<std::string>*>(data)->push_back(std::string("/") + name);
    }
    if (dcpl >= 0) H5Pclose(dcpl);
    H5Dclose(dset);
    return 0;
  };
  KERCHUNK_RETURN_IF_ERROR(
      Check(H5Ovisit2(file.get(), H5_INDEX_NAME, H5_ITER_NATIVE, visit, &names, H5O_INFO_BASIC),
            "visit " + path));
  return names;
}

namespace {

Result<hsize_t> UserBlock(hid_t file) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle fcpl, Check(H5Fget_create_plist(file), "fcpl"));
  hsize_t size = 0;
  KERCHUNK_RETURN_IF_ERROR(Check(H5Pget_userblock(fcpl.get(), &size), "user block"));
  return size;
}

Result<std::vector<hsize_t>> ChunkShape(hid_t dset, int rank) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle dcpl, Check(H5Dget_create_plist(dset), "dcpl"));
  std::vector<hsize_t> chunk(rank);
  if (H5Pget_chunk(dcpl.get(), rank, chunk.data()) != rank) {
    return InternalError("dataset has no chunk shape of rank {}", rank);
  }
  return chunk;
}

}  // namespace

Result<std::vector<ChunkRecord>> LibraryChunks(const std::string& path, const std::string& name) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle file, hdf5::OpenFileReadOnly(path));
  KERCHUNK_ASSIGN_OR_RETURN(hsize_t base, UserBlock(file.get()));
  KERCHUNK_ASSIGN_OR_RETURN(Handle dset,
                            Check(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), name));
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Dget_space(dset.get()), "space"));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  KERCHUNK_ASSIGN_OR_RETURN(auto chunk, ChunkShape(dset.get(), rank));
  // HDF5 1.10 rejects H5S_ALL here (later versions accept it): pass the dataset's own space.
  hsize_t n = 0;
  KERCHUNK_RETURN_IF_ERROR(Check(H5Dget_num_chunks(dset.get(), space.get(), &n), "num chunks"));
  std::vector<ChunkRecord> out(n);
  std::vector<hsize_t> offset(rank);
  for (hsize_t i = 0; i < n; ++i) {
    unsigned mask = 0;
    haddr_t addr = 0;
    hsize_t size = 0;
    KERCHUNK_RETURN_IF_ERROR(
        Check(H5Dget_chunk_info(dset.get(), space.get(), i, offset.data(), &mask, &addr, &size),
              "chunk info"));
    auto& c = out[i];
    for (int d = 0; d < rank; ++d) c.coords.push_back(offset[d] / chunk[d]);
    c.offset = addr + base;
    c.size = size;
    c.mask = mask;
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<hdf5::ChunkedDatasetInfo> DatasetInfo(const std::string& path, const std::string& name) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle file, hdf5::OpenFileReadOnly(path));
  KERCHUNK_ASSIGN_OR_RETURN(Handle dset,
                            Check(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), name));
  H5O_info_t oinfo;
  KERCHUNK_RETURN_IF_ERROR(Check(H5Oget_info2(dset.get(), &oinfo, H5O_INFO_BASIC), "info"));
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Dget_space(dset.get()), "space"));
  const int rank = H5Sget_simple_extent_ndims(space.get());
  hdf5::ChunkedDatasetInfo info;
  info.object_header_address = oinfo.addr;
  std::vector<hsize_t> dims(rank), max_dims(rank);
  H5Sget_simple_extent_dims(space.get(), dims.data(), max_dims.data());
  info.dims.assign(dims.begin(), dims.end());
  info.max_dims.assign(max_dims.begin(), max_dims.end());
  return info;
}

Result<std::vector<ChunkRecord>> NativeChunks(std::span<const std::byte> bytes,
                                              const hdf5::ChunkedDatasetInfo& info) {
  KERCHUNK_ASSIGN_OR_RETURN(auto file, hdf5::File::Open(bytes));
  KERCHUNK_ASSIGN_OR_RETURN(auto layout, hdf5::ReadDataLayout(file, info.object_header_address));
  std::vector<ChunkRecord> out;
  KERCHUNK_RETURN_IF_ERROR(hdf5::WalkChunkIndex(
      file, layout, info,
      [&](std::span<const uint64_t> coords, uint64_t offset, uint64_t size, uint32_t mask) {
        out.push_back({{coords.begin(), coords.end()}, offset, size, mask});
        return OkStatus();
      }));
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<ChunkRecord>> NativeChunks(const std::string& path, const std::string& name) {
  KERCHUNK_ASSIGN_OR_RETURN(auto info, DatasetInfo(path, name));
  KERCHUNK_ASSIGN_OR_RETURN(auto mapped, MappedFile::Open(path));
  return NativeChunks(mapped.bytes(), info);
}

std::vector<std::byte> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  std::memcpy(out.data(), chars.data(), chars.size());
  return out;
}

}  // namespace kerchunk::testing

namespace kerchunk::testing {

Status VerifyWithReadChunk(const std::string& path, const std::string& name,
                           std::span<const std::byte> file_bytes,
                           const std::vector<ChunkRecord>& chunks) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle file, hdf5::OpenFileReadOnly(path));
  KERCHUNK_ASSIGN_OR_RETURN(Handle dset,
                            Check(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), name));
  KERCHUNK_ASSIGN_OR_RETURN(auto info, DatasetInfo(path, name));
  std::vector<char> buffer;
  for (const auto& c : chunks) {
    KERCHUNK_ASSIGN_OR_RETURN(auto shape,
                              ChunkShape(dset.get(), static_cast<int>(c.coords.size())));
    std::vector<hsize_t> offset(c.coords.size());
    bool inside = true;
    for (size_t d = 0; d < offset.size(); ++d) {
      offset[d] = c.coords[d] * shape[d];
      inside = inside && offset[d] < info.dims[d];
    }
    // H5Dread_chunk refuses chunks outside the current shape (left by a shrink, or written by
    // a library that ordered the array differently): nothing to compare them with.
    if (!inside) continue;
    hsize_t size = 0;
    KERCHUNK_RETURN_IF_ERROR(
        Check(H5Dget_chunk_storage_size(dset.get(), offset.data(), &size), "chunk storage size"));
    if (size != c.size || !RangeWithin(c.offset, c.size, file_bytes.size())) {
      return InternalError("chunk {}: libhdf5 stores {} bytes there", fmt::streamed(c), size);
    }
    buffer.resize(size);
    uint32_t mask = 0;
    KERCHUNK_RETURN_IF_ERROR(Check(
        H5Dread_chunk(dset.get(), H5P_DEFAULT, offset.data(), &mask, buffer.data()), "read chunk"));
    if (mask != c.mask || std::memcmp(buffer.data(), file_bytes.data() + c.offset, size) != 0) {
      return InternalError("chunk {}: H5Dread_chunk returns other bytes or mask {}",
                           fmt::streamed(c), mask);
    }
  }
  return OkStatus();
}

}  // namespace kerchunk::testing
