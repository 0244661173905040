// The Fill Value messages: the old one (type 0x0004) and the new one (type 0x0005, versions
// 1..3), resolved as libhdf5 resolves them when it opens a dataset.
// Format: HDF5 File Format Specification, "IV.A.2.e. The Fill Value (Old) Message" and
// "IV.A.2.f. The Fill Value Message",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_fillvalue
#pragma once

#include <optional>
#include <string>

#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// H5Pfill_value_defined's answer.
enum class FillValueState { kUndefined, kDefault, kUserDefined };

struct FillValue {
  FillValueState state = FillValueState::kUndefined;
  /// The stored value (kUserDefined only), in the dataset's file type.
  std::string value;
};

/// Decodes the data of a new Fill Value message (type 0x0005).
Result<FillValue> DecodeFillValue(ByteReader r);
/// Decodes the data of an old Fill Value message (type 0x0004).
Result<FillValue> DecodeOldFillValue(ByteReader r);

/// What libhdf5's H5D__open_oid makes of a dataset's fill value messages: the new message when
/// present; otherwise the old one, where a missing message or an empty value means undefined.
Result<FillValue> ResolveFillValue(const std::optional<ByteReader>& new_message,
                                   const std::optional<ByteReader>& old_message);

}  // namespace kerchunk::hdf5
