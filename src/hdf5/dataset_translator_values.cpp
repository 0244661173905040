// Datasets whose values go into the references themselves rather than byte ranges of the file:
// variable-length data embedded as numcodecs JSON (kerchunk's vlen_encode="embed"), and
// decoded values stored inline for OnUnsupported::kInline.
#include <fmt/format.h>

#include <vector>

#include "hdf5/dataset_translator.h"
#include "hdf5/h5_library.h"
#include "hdf5/h5_strings.h"
#include "hdf5/vlen_embedding.h"

namespace kerchunk::hdf5::internal {
namespace {

template <typename T>
void AppendNumbers(const hvl_t& seq, json::Value& out) {
  const auto* p = static_cast<const T*>(seq.p);
  for (size_t i = 0; i < seq.len; ++i) {
    if constexpr (std::is_same_v<T, double>) {
      out.Push(json::Value::Double(p[i]));
    } else if constexpr (std::is_signed_v<T>) {
      out.Push(json::Value::Int(p[i]));
    } else {
      out.Push(json::Value::Uint(p[i]));
    }
  }
}

// Every element of a variable-length sequence dataset as a JSON list of numbers.
Result<std::vector<json::Value>> ReadSequences(hid_t dataset, hid_t file_type, size_t count) {
  Handle base(H5Tget_super(file_type));
  if (!base.valid()) return LibraryError("cannot inspect the sequence type");
  const bool is_float = H5Tget_class(base.get()) == H5T_FLOAT;
  const bool is_signed = !is_float && H5Tget_sign(base.get()) == H5T_SGN_2;
  const hid_t element = is_float    ? H5T_NATIVE_DOUBLE
                        : is_signed ? H5T_NATIVE_LLONG
                                    : H5T_NATIVE_ULLONG;
  KERCHUNK_ASSIGN_OR_RETURN(Handle mem, Check(H5Tvlen_create(element), "sequence memory type"));
  std::vector<hvl_t> sequences(count);
  if (count && H5Dread(dataset, mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, sequences.data()) < 0) {
    return LibraryError("cannot read the sequences");
  }
  std::vector<json::Value> out;
  out.reserve(count);
  for (const hvl_t& seq : sequences) {
    json::Value list = json::Value::MakeArray();
    if (is_float) {
      AppendNumbers<double>(seq, list);
    } else if (is_signed) {
      AppendNumbers<long long>(seq, list);
    } else {
      AppendNumbers<unsigned long long>(seq, list);
    }
    out.push_back(std::move(list));
  }
  Handle space(H5Dget_space(dataset));
  if (count && space.valid()) ReclaimVlen(mem.get(), space.get(), sequences.data());
  return out;
}

}  // namespace

Status EmbedVlenChunks(hid_t dataset, const NumpyType& type, const ChunkGrid& grid,
                       ArrayRefs& refs) {
  uint64_t count = 1;
  for (uint64_t d : grid.shape()) count *= d;
  if (count == 0) return OkStatus();
  std::vector<json::Value> values;
  KERCHUNK_ASSIGN_OR_RETURN(Handle file_type, Check(H5Dget_type(dataset), "datatype"));
  if (type.type_class == TypeClass::kVlenString) {
    KERCHUNK_ASSIGN_OR_RETURN(auto strings, ReadStrings(dataset, file_type.get(), count, false));
    values.reserve(count);
    for (std::string& s : strings)
      values.push_back(json::Value::String(json::ToValidUtf8(std::move(s))));
  } else {
    KERCHUNK_ASSIGN_OR_RETURN(values, ReadSequences(dataset, file_type.get(), count));
  }
  EmbedValues(values, grid, refs);
  return OkStatus();
}

}  // namespace kerchunk::hdf5::internal
