// The Filter Pipeline message (type 0x000B), versions 1 and 2: the filters applied to each
// chunk of a dataset (or to a fractal heap's blocks), in the order they were applied.
// Format: HDF5 File Format Specification, "IV.A.2.l. The Data Storage - Filter Pipeline
// Message",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_pipeline
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

struct FilterDescription {
  uint16_t id = 0;
  uint16_t flags = 0;  ///< bit 0: optional
  std::string name;    ///< as stored (may be empty)
  std::vector<uint32_t> client_data;
};

/// Decodes a Filter Pipeline message (at most 32 filters, as libhdf5's H5Z_MAX_NFILTERS).
Result<std::vector<FilterDescription>> DecodeFilterPipeline(ByteReader r);

}  // namespace kerchunk::hdf5
