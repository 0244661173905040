// The Dataspace message (type 0x0001), versions 1 and 2: rank, current and maximum extents.
// Format: HDF5 File Format Specification, "IV.A.2.b. The Dataspace Message",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_dataspace
#pragma once

#include <cstdint>
#include <vector>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/hdf5/object_header.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// A maximum extent that can grow without limit (H5S_UNLIMITED).
inline constexpr uint64_t kUnlimitedExtent = ~uint64_t{0};

/// Scalar (one element, rank 0), simple (rank 1..32) or null (no elements).
enum class DataspaceClass : uint8_t { kScalar = 0, kSimple = 1, kNull = 2 };

struct Dataspace {
  DataspaceClass space_class = DataspaceClass::kScalar;
  std::vector<uint64_t> dims;
  /// Same rank as dims; equal to dims when the message stores no maxima; kUnlimitedExtent for
  /// an unlimited dimension.
  std::vector<uint64_t> max_dims;

  /// Number of elements: 0 for a null dataspace, 1 for a scalar. DataLoss on overflow.
  Result<uint64_t> ElementCount() const;
};

/// Decodes a Dataspace message (rank at most 32). DataLoss for malformed or truncated bytes.
Result<Dataspace> DecodeDataspace(const File& file, ByteReader r);

}  // namespace kerchunk::hdf5
