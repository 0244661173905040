// numpy dtype strings as zarr v2 writes them in .zarray: the one place that reads them. Three
// views for three needs: DtypeInfo checks a dtype the way numpy and zarr read it (verify);
// NumericType loads and stores the plain integer and float elements the element-wise codecs
// (delta, fixedscaleoffset), combine's coordinates and verify's value comparison work on; the
// public DtypeItemSize / EncodeFillValue (kerchunk/refs/zarr_metadata.h) serve the writers.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::internal {

/// A dtype as numpy reads it: a simple type ("<f4", "|S12", "<M8[ns]", "|O") or a record (a
/// list of [name, dtype] or [name, dtype, shape] fields, itemsize the packed sum).
struct DtypeInfo {
  char order = '|';       ///< '<', '>', '|' or '='; '|' for records
  char kind = 'V';        ///< numpy kind: b i u f c m M S U V O; 'V' for records
  uint64_t itemsize = 0;  ///< bytes per element (0 for "|O")
  bool record = false;
};

/// Parses and checks a dtype as zarr v2 writes it (a string or a record list). InvalidArgument
/// saying what is wrong, e.g. "dtype \"<f3\": a float has 2, 4, 8 or 16 bytes".
Result<DtypeInfo> ParseDtype(const json::Value& dtype);

/// Checks that zarr 2 can decode `fill_value` for the dtype (zarr's decode_fill_value): null
/// always; floats a number or "NaN"/"Infinity"/"-Infinity"; integers an integer in range;
/// booleans a boolean or number; complex a [re, im] pair; bytes ("S") anything (zarr is lenient);
/// void and records a base64 string; "U" a string; datetimes a number or string; objects any.
Status CheckFillValue(const json::Value& fill_value, const DtypeInfo& dtype);

/// A numpy integer or float dtype: kind 'i', 'u' or 'f'; size 1, 2, 4 or 8 (floats 4 or 8).
struct NumericType {
  char kind = 'f';
  uint8_t size = 8;
  bool big_endian = false;

  /// Parses "<f8", ">i2", "|u1", "=i4" (native), ... ; nullopt for anything else (bool,
  /// complex, half floats, strings).
  static std::optional<NumericType> Parse(std::string_view dtype);

  bool is_float() const { return kind == 'f'; }
  bool operator==(const NumericType&) const = default;

  /// Reads element `i` of `bytes` as a double / as a two's-complement 64-bit pattern.
  double LoadDouble(const char* bytes, uint64_t i) const;
  uint64_t LoadBits(const char* bytes, uint64_t i) const;
  /// Writes a 64-bit pattern truncated to `size` bytes in this type's byte order.
  void StoreBits(char* bytes, uint64_t i, uint64_t bits) const;
  /// Writes a double as this float type (rounding to float32 for "f4").
  void StoreDouble(char* bytes, uint64_t i, double v) const;
  /// The signed value of an integer element (sign-extended for kind 'i').
  int64_t LoadSigned(const char* bytes, uint64_t i) const;
  /// Whether `v` (an integral double) fits this integer type.
  bool IntegerFits(double v) const;
};

}  // namespace kerchunk::internal
