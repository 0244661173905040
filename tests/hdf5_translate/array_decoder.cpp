#include "hdf5_translate/array_decoder.h"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <zlib.h>

#include <vector>

#include "kerchunk/util/file_io.h"

namespace kerchunk::testing {
namespace {

Result<std::string> Inflate(std::string_view in, size_t expected) {
  std::string out(expected, '\0');
  uLongf size = expected;
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                 reinterpret_cast<const Bytef*>(in.data()), in.size()) != Z_OK) {
    return DataLossError("zlib: cannot inflate {} bytes", in.size());
  }
  out.resize(size);
  return out;
}

std::string Unshuffle(std::string_view in, size_t element) {
  std::string out(in.size(), '\0');
  const size_t n = in.size() / element;
  for (size_t b = 0; b < element; ++b) {
    for (size_t i = 0; i < n; ++i) out[i * element + b] = in[b * n + i];
  }
  // Trailing bytes that do not fill an element are left as they are (numcodecs does the same).
  for (size_t i = n * element; i < in.size(); ++i) out[i] = in[i];
  return out;
}

Result<std::string> Decode(std::string bytes, const ZarrArrayMeta& meta, size_t chunk_bytes) {
  if (!meta.filters.is_array()) return bytes;
  const auto& filters = meta.filters.as_array();
  for (auto it = filters.rbegin(); it != filters.rend(); ++it) {
    const std::string& id = it->Find("id")->as_string();
    if (id == "zlib") {
      KERCHUNK_ASSIGN_OR_RETURN(bytes, Inflate(bytes, chunk_bytes));
    } else if (id == "shuffle") {
      bytes = Unshuffle(bytes, static_cast<size_t>(it->Find("elementsize")->as_double()));
    } else {
      return UnsupportedError("test decoder: filter {}", id);
    }
  }
  return bytes;
}

}  // namespace

Result<std::string> AssembleArray(const ArrayRefs& array, const ZarrArrayMeta& meta,
                                  const std::string& file_path, std::string_view fill_element) {
  const ChunkGrid& grid = array.grid();
  const size_t item = fill_element.size();
  const size_t rank = grid.rank();
  uint64_t total = 1, chunk_elems = 1;
  for (size_t d = 0; d < rank; ++d) {
    total *= grid.shape()[d];
    chunk_elems *= grid.chunks()[d];
  }
  std::string out;
  out.reserve(total * item);
  for (uint64_t i = 0; i < total; ++i) out.append(fill_element);
  std::vector<uint64_t> coords(rank), local(rank);
  for (size_t i = 0; i < array.size(); ++i) {
    const ChunkRef ref = array.Get(i);
    std::string raw;
    if (ref.kind == RefKind::kInline) {
      raw = std::string(ref.data);
    } else {
      KERCHUNK_ASSIGN_OR_RETURN(raw, ReadFileRange(file_path, ref.offset, ref.length));
    }
    KERCHUNK_ASSIGN_OR_RETURN(std::string chunk, Decode(std::move(raw), meta, chunk_elems * item));
    if (chunk.size() != chunk_elems * item) {
      return DataLossError("chunk {}: {} bytes, expected {}", grid.Key(array.chunk_index(i)),
                           chunk.size(), chunk_elems * item);
    }
    grid.Coords(array.chunk_index(i), coords);
    for (uint64_t e = 0; e < chunk_elems; ++e) {
      // Element e of the chunk -> its position in the array (skipped past the edges).
      uint64_t rest = e, linear = 0;
      bool inside = true;
      for (size_t d = rank; d-- > 0;) {
        local[d] = rest % grid.chunks()[d];
        rest /= grid.chunks()[d];
      }
      for (size_t d = 0; d < rank; ++d) {
        const uint64_t g = coords[d] * grid.chunks()[d] + local[d];
        inside = inside && g < grid.shape()[d];
        linear = linear * grid.shape()[d] + g;
      }
      if (inside) out.replace(linear * item, item, chunk, e * item, item);
    }
  }
  return out;
}

namespace {

// The dataset's values in its file type (no conversion), and its fill value's bytes.
struct LibraryView {
  std::string values;
  std::string fill;
};

LibraryView ReadWithLibrary(const std::string& file_path, const std::string& dataset) {
  LibraryView view;
  hid_t f = H5Fopen(file_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  hid_t t = H5Dget_type(d), s = H5Dget_space(d), p = H5Dget_create_plist(d);
  const size_t item = H5Tget_size(t);
  view.values.assign(item * static_cast<size_t>(H5Sget_simple_extent_npoints(s)), '\0');
  view.fill.assign(item, '\0');
  EXPECT_GE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, view.values.data()), 0) << dataset;
  H5D_fill_value_t defined;
  H5Pfill_value_defined(p, &defined);
  if (defined != H5D_FILL_VALUE_UNDEFINED) H5Pget_fill_value(p, t, view.fill.data());
  H5Pclose(p);
  H5Sclose(s);
  H5Tclose(t);
  H5Dclose(d);
  H5Fclose(f);
  return view;
}

// Checks every array of `refs` whose dtype is a plain byte layout; returns how many.
}  // namespace

int ExpectArraysDecodeLikeLibrary(const ReferenceSet& refs, const std::string& file_path) {
  int checked = 0;
  for (const ArrayRefs& array : refs.arrays) {
    const Entry* e = refs.FindEntry(array.KeyPrefix() + ".zarray");
    if (!e) continue;
    auto meta = ZarrArrayMeta::Parse(e->value.data);
    EXPECT_TRUE(meta.ok()) << array.path();
    if (!meta.ok() || meta->dtype == "|O") continue;
    const LibraryView lib = ReadWithLibrary(file_path, "/" + array.path());
    auto ours = AssembleArray(array, *meta, file_path, lib.fill);
    EXPECT_TRUE(ours.ok()) << array.path() << ": " << ours.status().ToString();
    if (!ours.ok()) continue;
    EXPECT_TRUE(*ours == lib.values) << array.path() << " decodes differently from H5Dread";
    ++checked;
  }
  return checked;
}

}  // namespace kerchunk::testing
