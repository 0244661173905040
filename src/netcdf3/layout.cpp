// Shapes, the record layout and the placement of values, as netCDF-C derives and checks them when
// it opens a file (libsrc/var.c NC_var_shape, libsrc/v1hpg.c NC_computeshapes,
// libsrc/nc3internal.c NC_check_voffs), plus the check netCDF-C leaves to read time: that the
// values lie inside the file.
#include "netcdf3/layout.h"

#include <algorithm>

#include "kerchunk/util/checked_math.h"

namespace kerchunk::netcdf3::internal {
namespace {

Status Overflow(const Variable& v, std::string_view what) {
  return DataLossError("variable \"{}\": {} overflows 64 bits", v.name, what);
}

// The slab of one record (record variable) or of all values (fixed-size variable): the product
// of the non-record dimension lengths times the type size. In NetCDF-3 a dimension of length 0
// is the record dimension, and netCDF-C allows it only in first position (NC_EUNLIMPOS).
Status ComputeSlab(const Header& h, Variable& v) {
  v.is_record = false;
  uint64_t product = TypeSize(v.type);
  for (size_t i = 0; i < v.dim_ids.size(); ++i) {
    uint64_t id = v.dim_ids[i];
    if (id >= h.dimensions.size()) {
      return DataLossError(
          "variable \"{}\": dimension {} has id {}, but the file defines {} dimensions", v.name, i,
          id, h.dimensions.size());
    }
    const Dimension& d = h.dimensions[id];
    if (d.is_record()) {
      if (i != 0) {
        return DataLossError(
            "variable \"{}\": the record dimension \"{}\" must be the first dimension, got "
            "position {}",
            v.name, d.name, i);
      }
      v.is_record = true;
      continue;
    }
    auto p = CheckedMul(product, d.length);
    if (!p) return Overflow(v, "the size of its values");
    product = *p;
  }
  v.slab_bytes = product;
  return OkStatus();
}

// netCDF-C's "len": the slab rounded up to a multiple of 4.
Result<uint64_t> PaddedSlab(const Variable& v) {
  auto padded = CheckedAdd(v.slab_bytes, (4 - v.slab_bytes % 4) % 4);
  if (!padded) return Overflow(v, "the padded size of its values");
  return *padded;
}

Result<uint64_t> End(const Variable& v, uint64_t length) {
  auto end = CheckedAdd(v.begin, length);
  if (!end) return Overflow(v, "begin + size");
  return *end;
}

// Each variable starts at or after the end of the previous one (netCDF-C: NC_ENOTNC): fixed-size
// variables after the header in header order, record variables after all fixed-size ones.
Status CheckOrder(const Header& h) {
  uint64_t previous_end = h.header_size;
  std::string previous = "the header";
  for (bool records : {false, true}) {
    for (const auto& v : h.variables) {
      if (v.is_record != records) continue;
      if (v.begin < previous_end) {
        return DataLossError(
            "variable \"{}\" begins at offset {}, before the end of {} at offset {}", v.name,
            v.begin, previous, previous_end);
      }
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t padded, PaddedSlab(v));
      KERCHUNK_ASSIGN_OR_RETURN(previous_end, End(v, padded));
      previous = fmt::format("variable \"{}\"", v.name);
    }
  }
  return OkStatus();
}

Status ComputeRecordSize(Header& h) {
  h.record_size = 0;
  const Variable* only = nullptr;
  size_t record_variables = 0;
  for (const auto& v : h.variables) {
    if (!v.is_record) continue;
    ++record_variables;
    only = &v;
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t padded, PaddedSlab(v));
    auto sum = CheckedAdd(h.record_size, padded);
    if (!sum) return Overflow(v, "the record size");
    h.record_size = *sum;
  }
  // The spec's "Note on padding": a single record variable is not padded between records.
  if (record_variables == 1) h.record_size = only->slab_bytes;
  return OkStatus();
}

// With numrecs = STREAMING, the number of complete records the file holds.
Result<uint64_t> RecordsInFile(const Header& h) {
  uint64_t first_begin = UINT64_MAX;
  uint64_t used_end = 0;  // end of the last value of record 0
  for (const auto& v : h.variables) {
    if (!v.is_record) continue;
    first_begin = std::min(first_begin, v.begin);
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t end, End(v, v.slab_bytes));
    used_end = std::max(used_end, end);
  }
  if (first_begin == UINT64_MAX || h.record_size == 0 || h.file_size < used_end) return 0;
  return (h.file_size - used_end) / h.record_size + 1;
}

Status CheckInsideFile(const Header& h, const Variable& v) {
  if (v.is_record) {
    if (h.num_records == 0 || v.slab_bytes == 0) return OkStatus();
    auto last_start = CheckedMul(h.num_records - 1, h.record_size);
    auto first = last_start ? CheckedAdd(v.begin, *last_start) : std::nullopt;
    auto end = first ? CheckedAdd(*first, v.slab_bytes) : std::nullopt;
    if (!end) return Overflow(v, "the offset of its last record");
    if (*end > h.file_size) {
      return DataLossError(
          "record variable \"{}\": record {} of {} at [{}, {}) lies past the end of the file "
          "({} bytes)",
          v.name, h.num_records - 1, h.num_records, *first, *end, h.file_size);
    }
    return OkStatus();
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t end, End(v, v.slab_bytes));
  if (end > h.file_size) {
    return DataLossError(
        "variable \"{}\": values at [{}, {}) lie past the end of the file ({} bytes)", v.name,
        v.begin, end, h.file_size);
  }
  return OkStatus();
}

}  // namespace

Status ComputeLayout(Header& h) {
  for (auto& v : h.variables) KERCHUNK_RETURN_IF_ERROR(ComputeSlab(h, v));
  KERCHUNK_RETURN_IF_ERROR(ComputeRecordSize(h));
  KERCHUNK_RETURN_IF_ERROR(CheckOrder(h));
  if (h.streaming) {
    KERCHUNK_ASSIGN_OR_RETURN(h.num_records, RecordsInFile(h));
  }
  for (auto& v : h.variables) {
    v.shape.clear();
    for (uint64_t id : v.dim_ids) v.shape.push_back(h.DimensionLength(id));
    KERCHUNK_RETURN_IF_ERROR(CheckInsideFile(h, v));
  }
  return OkStatus();
}

}  // namespace kerchunk::netcdf3::internal
