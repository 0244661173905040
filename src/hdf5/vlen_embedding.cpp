// Variable-length values embedded as numcodecs JSON chunks; see vlen_embedding.h.
#include "hdf5/vlen_embedding.h"

namespace kerchunk::hdf5::internal {
namespace {

// One chunk's values as nested lists (numpy's tolist() of the chunk block, padded with None).
json::Value Block(const std::vector<json::Value>& values, const ChunkGrid& grid,
                  std::span<const uint64_t> chunk, size_t dim, uint64_t linear_prefix,
                  bool inside) {
  const auto& shape = grid.shape();
  const uint64_t extent = grid.chunks()[dim];
  json::Value list = json::Value::MakeArray();
  for (uint64_t i = 0; i < extent; ++i) {
    const uint64_t g = chunk[dim] * extent + i;
    const bool in = inside && g < shape[dim];
    const uint64_t linear = linear_prefix * shape[dim] + (in ? g : 0);
    if (dim + 1 == shape.size()) {
      list.Push(in ? values[linear] : json::Value::Null());
    } else {
      list.Push(Block(values, grid, chunk, dim + 1, linear, in));
    }
  }
  return list;
}

}  // namespace

json::Value JsonCodecConfig() {
  json::Value v = json::Value::MakeObject();
  v.Set("allow_nan", json::Value::Bool(true));
  v.Set("check_circular", json::Value::Bool(true));
  v.Set("encoding", json::Value::String("utf-8"));
  v.Set("ensure_ascii", json::Value::Bool(true));
  v.Set("id", json::Value::String("json2"));
  v.Set("indent", json::Value::Null());
  v.Set("separators", json::Value::MakeArray({json::Value::String(","), json::Value::String(":")}));
  v.Set("skipkeys", json::Value::Bool(false));
  v.Set("sort_keys", json::Value::Bool(true));
  v.Set("strict", json::Value::Bool(true));
  return v;
}

void EmbedValues(const std::vector<json::Value>& values, const ChunkGrid& grid, ArrayRefs& refs) {
  const size_t rank = grid.rank();
  std::vector<uint64_t> coords(rank);
  json::Value shape_list = json::Value::MakeArray();
  for (uint64_t c : grid.chunks()) shape_list.Push(json::Value::Uint(c));
  // numcodecs' JSON codec cannot decode a 0-d chunk (it assigns into np.empty(()) with [:]);
  // a one-element chunk decodes, and zarr reshapes it to the scalar.
  if (rank == 0) shape_list.Push(json::Value::Uint(1));
  for (uint64_t chunk = 0; chunk < grid.num_chunks(); ++chunk) {
    json::Value items;
    if (rank == 0) {
      items = json::Value::MakeArray({values[0]});
    } else {
      grid.Coords(chunk, coords);
      items = Block(values, grid, coords, 0, 0, true);
    }
    items.Push(json::Value::String("|O"));
    items.Push(shape_list);
    refs.AddInline(chunk, items.Dump(), /*base64=*/false);
  }
}

}  // namespace kerchunk::hdf5::internal
