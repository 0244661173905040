// _ARRAY_DIMENSIONS from HDF5 dimension scales, read from the DIMENSION_LIST attribute directly
// (a variable-length sequence of object references per dimension) so the library needs no
// libhdf5_hl, and names come from the traversal's address -> path table instead of
// H5Iget_name, which searches the whole file for every dereferenced object.
#include <fmt/format.h>

#include <vector>

#include "hdf5/dataset_translator.h"
#include "hdf5/h5_library.h"
#include "hdf5/h5_strings.h"

namespace kerchunk::hdf5::internal {
namespace {

// The object references attached to each dimension.
Result<std::vector<std::vector<hobj_ref_t>>> ReadDimensionList(hid_t dataset, size_t rank) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle attr, Check(H5Aopen(dataset, "DIMENSION_LIST", H5P_DEFAULT),
                                               "cannot open DIMENSION_LIST"));
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Aget_space(attr.get()), "DIMENSION_LIST"));
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0 || static_cast<size_t>(n) != rank) {
    return DataLossError("DIMENSION_LIST has {} entries for {} dimensions", n, rank);
  }
  KERCHUNK_ASSIGN_OR_RETURN(Handle mem, Check(H5Tvlen_create(H5T_STD_REF_OBJ), "vlen type"));
  std::vector<hvl_t> lists(rank);
  if (H5Aread(attr.get(), mem.get(), lists.data()) < 0) {
    return LibraryError("cannot read DIMENSION_LIST");
  }
  std::vector<std::vector<hobj_ref_t>> out(rank);
  for (size_t d = 0; d < rank; ++d) {
    const auto* refs = static_cast<const hobj_ref_t*>(lists[d].p);
    out[d].assign(refs, refs + lists[d].len);
  }
  ReclaimVlen(mem.get(), space.get(), lists.data());
  return out;
}

// Path of a referenced scale: from the traversal when it was reached by a hard link, else as
// libhdf5 names it.
Result<std::string> ScalePath(TranslationContext& context, hid_t dataset, hobj_ref_t ref) {
  // In the version 1 reference format an object reference is the object header's address.
  if (auto it = context.object_paths.find(static_cast<uint64_t>(ref));
      it != context.object_paths.end()) {
    return it->second;
  }
  KERCHUNK_ASSIGN_OR_RETURN(Handle object,
                            Check(H5Rdereference2(dataset, H5P_DEFAULT, H5R_OBJECT, &ref),
                                  "cannot follow a dimension scale reference"));
  const ssize_t size = H5Iget_name(object.get(), nullptr, 0);
  if (size < 0) return LibraryError("cannot name a dimension scale");
  std::string name(static_cast<size_t>(size), '\0');
  H5Iget_name(object.get(), name.data(), name.size() + 1);
  if (!name.empty() && name[0] == '/') name.erase(0, 1);
  return name;
}

}  // namespace

Result<json::Value> ArrayDimensions(TranslationContext& context, hid_t dataset,
                                    const std::string& path, size_t rank,
                                    const AttributeSet& attributes) {
  json::Value dims = json::Value::MakeArray();
  std::vector<std::vector<hobj_ref_t>> scales(rank);
  if (attributes.has_dimension_list && rank > 0) {
    auto list = ReadDimensionList(dataset, rank);
    if (list.ok()) {
      scales = std::move(*list);
    } else {
      context.result->warnings.push_back(
          fmt::format("dataset /{}: DIMENSION_LIST ignored: {}", path, list.status().message()));
    }
  }
  for (size_t d = 0; d < rank; ++d) {
    if (!scales[d].empty() && (scales[d].size() == 1 || !attributes.is_dimension_scale)) {
      if (scales[d].size() > 1) {
        context.result->warnings.push_back(fmt::format(
            "dataset /{}: {} dimension scales attached to dimension {}; using the first", path,
            scales[d].size(), d));
      }
      auto name = ScalePath(context, dataset, scales[d][0]);
      if (name.ok()) {
        dims.Push(json::Value::String(std::move(*name)));
        continue;
      }
      H5Eclear2(H5E_DEFAULT);
      context.result->warnings.push_back(
          fmt::format("dataset /{}: dimension {}: {}", path, d, name.status().message()));
      dims.Push(json::Value::String(fmt::format("phony_dim_{}", d)));
    } else if (attributes.is_dimension_scale) {
      dims.Push(json::Value::String(path));
    } else {
      dims.Push(json::Value::String(fmt::format("phony_dim_{}", d)));
    }
  }
  return dims;
}

}  // namespace kerchunk::hdf5::internal
