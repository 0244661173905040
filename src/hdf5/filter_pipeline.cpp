// Filter Pipeline message versions 1 and 2; see the specification link in filter_pipeline.h.
#include "kerchunk/hdf5/filter_pipeline.h"

#include <fmt/format.h>

namespace kerchunk::hdf5 {
namespace {

constexpr unsigned kMaxFilters = 32;

Result<FilterDescription> DecodeFilter(ByteReader& r, uint8_t version) {
  FilterDescription f;
  KERCHUNK_ASSIGN_OR_RETURN(f.id, r.U16("filter id"));
  uint16_t name_length = 0;
  // Version 2 leaves out the name length (and the name) of the predefined filters (id < 256).
  if (version == 1 || f.id >= 256) {
    KERCHUNK_ASSIGN_OR_RETURN(name_length, r.U16("name length"));
  }
  KERCHUNK_ASSIGN_OR_RETURN(f.flags, r.U16("flags"));
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t values, r.U16("number of client data values"));
  if (name_length > 0) {
    // Version 1 pads the name to a multiple of 8 bytes (included in its length).
    KERCHUNK_ASSIGN_OR_RETURN(std::string_view name, r.Chars(name_length, "filter name"));
    f.name = std::string(name.substr(0, name.find('\0')));
  }
  f.client_data.resize(values);
  for (uint32_t& v : f.client_data) {
    KERCHUNK_ASSIGN_OR_RETURN(v, r.U32("client data"));
  }
  if (version == 1 && values % 2 == 1) KERCHUNK_RETURN_IF_ERROR(r.Skip(4));  // padding
  return f;
}

}  // namespace

Result<std::vector<FilterDescription>> DecodeFilterPipeline(ByteReader r) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 1 && version != 2) {
    return r.Error(fmt::format("expected version 1 or 2, got {}", version));
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t count, r.U8("number of filters"));
  if (count > kMaxFilters) {
    return r.Error(fmt::format("expected at most {} filters, got {}", kMaxFilters, count));
  }
  if (version == 1) KERCHUNK_RETURN_IF_ERROR(r.Skip(6));  // reserved
  std::vector<FilterDescription> filters;
  for (unsigned i = 0; i < count; ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(FilterDescription f, DecodeFilter(r, version));
    filters.push_back(std::move(f));
  }
  return filters;
}

}  // namespace kerchunk::hdf5
