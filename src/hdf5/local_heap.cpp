// Local heap; see the specification link in local_heap.h.
//
// Header: "HEAP", version 0, 3 reserved bytes, data segment size (L), offset to the head of the
// free list (L), data segment address (O).
#include "kerchunk/hdf5/local_heap.h"

#include <fmt/format.h>

namespace kerchunk::hdf5 {

Result<LocalHeap> LocalHeap::Open(const File& file, uint64_t address) {
  KERCHUNK_ASSIGN_OR_RETURN(
      ByteReader r,
      file.ReaderAt(address, 8 + 2 * file.length_size() + file.offset_size(), "local heap"));
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("HEAP"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(3));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, file.ReadLength(r, "data segment size"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(file.length_size()));  // free list head
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t data_address, file.ReadAddress(r, "data segment address"));
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader data,
                            file.ReaderAt(data_address, size, "local heap data segment"));
  LocalHeap heap;
  heap.data_ = std::string_view(reinterpret_cast<const char*>(data.bytes().data()), size);
  heap.data_offset_ = data.address();
  return heap;
}

Result<std::string_view> LocalHeap::StringAt(uint64_t offset) const {
  if (offset >= data_.size()) {
    return DataLossError(
        "local heap data segment at address {}: name offset {} is outside its {} bytes",
        data_offset_, offset, data_.size());
  }
  const size_t end = data_.find('\0', offset);
  if (end == std::string_view::npos) {
    return DataLossError(
        "local heap data segment at address {}: the name at offset {} has no terminating NUL",
        data_offset_, offset);
  }
  return data_.substr(offset, end - offset);
}

}  // namespace kerchunk::hdf5
