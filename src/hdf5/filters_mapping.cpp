#include "hdf5/filters_mapping.h"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "hdf5/h5_library.h"

namespace kerchunk::hdf5::internal {
namespace {

struct Filter {
  H5Z_filter_t id = 0;
  unsigned flags = 0;
  std::vector<unsigned> cd_values;
};

Result<Filter> ReadFilter(hid_t dcpl, unsigned index) {
  Filter f;
  std::array<unsigned, 32> cd{};
  size_t cd_count = cd.size();
  std::array<char, 64> name{};
  f.id = H5Pget_filter2(dcpl, index, &f.flags, &cd_count, cd.data(), name.size(), name.data(),
                        nullptr);
  if (f.id < 0) return LibraryError(fmt::format("cannot read filter {} of the pipeline", index));
  // cd_count is the number of values the filter has, which may exceed the buffer.
  if (cd_count > cd.size()) {
    std::vector<unsigned> all(cd_count);
    size_t n = cd_count;
    if (H5Pget_filter2(dcpl, index, &f.flags, &n, all.data(), 0, nullptr, nullptr) < 0) {
      return LibraryError(fmt::format("cannot read filter {} of the pipeline", index));
    }
    f.cd_values = std::move(all);
  } else {
    f.cd_values.assign(cd.begin(), cd.begin() + cd_count);
  }
  return f;
}

}  // namespace

Result<FilterPipeline> DescribeFilters(hid_t dcpl, size_t element_size) {
  const int count = H5Pget_nfilters(dcpl);
  if (count < 0) return LibraryError("cannot read the filter pipeline");
  std::vector<FilterDescription> filters;
  for (unsigned i = 0; i < static_cast<unsigned>(count); ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(Filter f, ReadFilter(dcpl, i));
    FilterDescription d;
    d.id = static_cast<uint16_t>(f.id);
    d.flags = static_cast<uint16_t>(f.flags);
    d.client_data.assign(f.cd_values.begin(), f.cd_values.end());
    filters.push_back(std::move(d));
  }
  return MapFilters(filters, element_size);
}

}  // namespace kerchunk::hdf5::internal
