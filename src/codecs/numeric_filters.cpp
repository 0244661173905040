// numcodecs' element-wise filters "delta" and "fixedscaleoffset", for the dtype combinations
// whose numpy arithmetic is plain: delta with astype == dtype; fixedscaleoffset from float or
// integer dtypes to integer or float64 storage types (numpy computes those in float64).
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "codecs/codec_factories.h"
#include "refs/zarr_dtype.h"

namespace kerchunk::codecs::internal {

using kerchunk::internal::NumericType;
namespace {

Result<NumericType> ParseType(std::string_view codec, std::string_view dtype) {
  auto t = NumericType::Parse(dtype);
  if (!t) return UnsupportedError("{}: unsupported dtype \"{}\"", codec, dtype);
  return *t;
}

Status CheckWhole(std::string_view codec, uint64_t n, const NumericType& t) {
  if (n % t.size != 0) {
    return DataLossError("{}: {} bytes is not a whole number of {}-byte items", codec, n, t.size);
  }
  return OkStatus();
}

json::Value TypeConfig(std::string_view id, std::string_view dtype, std::string_view astype) {
  json::Value c = json::Value::MakeObject();
  c.Set("id", json::Value::String(std::string(id)));
  c.Set("dtype", json::Value::String(std::string(dtype)));
  c.Set("astype", json::Value::String(std::string(astype)));
  return c;
}

// Delta: decode is a running sum (np.cumsum), wrapping for integers and in the item's own
// precision for floats; encode stores the first item and then successive differences.
class DeltaCodec final : public Codec {
 public:
  DeltaCodec(std::string dtype, NumericType type) : dtype_(std::move(dtype)), type_(type) {}
  std::string_view id() const override { return "delta"; }

  Result<std::string> Decode(std::string_view encoded, DecodedSize size) const override {
    KERCHUNK_RETURN_IF_ERROR(CheckDecodedSize("delta", size, encoded.size()));
    KERCHUNK_RETURN_IF_ERROR(CheckWhole("delta", encoded.size(), type_));
    return Run(encoded, /*decode=*/true);
  }
  Result<std::string> Encode(std::string_view raw) const override {
    KERCHUNK_RETURN_IF_ERROR(CheckWhole("delta", raw.size(), type_));
    return Run(raw, /*decode=*/false);
  }
  std::optional<uint64_t> EncodedSize(uint64_t decoded_size) const override { return decoded_size; }
  json::Value Config() const override { return TypeConfig("delta", dtype_, dtype_); }

 private:
  std::string Run(std::string_view in, bool decode) const {
    std::string out(in.size(), '\0');
    const uint64_t n = in.size() / type_.size;
    if (RunInMachineOrder(in.data(), out.data(), n, decode)) return out;
    if (type_.is_float()) {
      double prev = 0;
      for (uint64_t i = 0; i < n; ++i) {
        double v = type_.LoadDouble(in.data(), i);
        double r = decode ? Round(prev + v) : (i == 0 ? v : Round(v - prev));
        type_.StoreDouble(out.data(), i, r);
        prev = decode ? r : v;
      }
    } else {
      uint64_t prev = 0;
      for (uint64_t i = 0; i < n; ++i) {
        uint64_t v = type_.LoadBits(in.data(), i);
        uint64_t r = decode ? prev + v : v - prev;  // modulo 2^64, truncated on store
        type_.StoreBits(out.data(), i, r);
        prev = decode ? r : v;
      }
    }
    return out;
  }
  // float32 sums are rounded to float32 at every step, as numpy accumulates in the item type.
  double Round(double v) const { return type_.size == 4 ? static_cast<float>(v) : v; }

  // Items in the machine's byte order, of 4 or 8 bytes (a combined series' coordinate, which
  // combine encodes and decodes again to check on every scan): the loops of Run with typed
  // loads and stores, the same arithmetic in the same order, so the same values (which NaN a
  // sum of two NaNs keeps is the compiler's choice in either loop).
  bool RunInMachineOrder(const char* in, char* out, uint64_t n, bool decode) const {
    if (type_.big_endian != (std::endian::native == std::endian::big)) return false;
    if (type_.is_float() && type_.size == 8) return RunTyped<double>(in, out, n, decode), true;
    if (type_.is_float() && type_.size == 4) return RunTyped<float>(in, out, n, decode), true;
    if (!type_.is_float() && type_.size == 8) return RunTyped<uint64_t>(in, out, n, decode), true;
    if (!type_.is_float() && type_.size == 4) return RunTyped<uint32_t>(in, out, n, decode), true;
    return false;
  }

  template <typename T>
  static void RunTyped(const char* in, char* out, uint64_t n, bool decode) {
    // Floats in double, rounded to T at every step; integers modulo 2^(8 * sizeof(T)), which is
    // Run's modulo-2^64 arithmetic truncated on store.
    using Wide = std::conditional_t<std::is_floating_point_v<T>, double, T>;
    Wide prev = 0;
    for (uint64_t i = 0; i < n; ++i) {
      T item;
      std::memcpy(&item, in + i * sizeof(T), sizeof(T));
      const Wide v = item;
      const T r = static_cast<T>(decode ? prev + v : (i == 0 ? v : v - prev));
      std::memcpy(out + i * sizeof(T), &r, sizeof(T));
      prev = decode ? Wide{r} : v;
    }
  }

  std::string dtype_;
  NumericType type_;
};

// FixedScaleOffset: encode round((x - offset) * scale) to astype; decode enc / scale + offset,
// converted to dtype (integers truncated toward zero, as numpy's astype).
class FixedScaleOffsetCodec final : public Codec {
 public:
  FixedScaleOffsetCodec(double scale, double offset, std::string dtype, NumericType type,
                        std::string astype, NumericType stored)
      : scale_(scale),
        offset_(offset),
        dtype_(std::move(dtype)),
        type_(type),
        astype_(std::move(astype)),
        stored_(stored) {}
  std::string_view id() const override { return "fixedscaleoffset"; }

  Result<std::string> Decode(std::string_view encoded, DecodedSize size) const override {
    KERCHUNK_RETURN_IF_ERROR(CheckWhole(id(), encoded.size(), stored_));
    const uint64_t n = encoded.size() / stored_.size;
    KERCHUNK_RETURN_IF_ERROR(CheckDecodedSize(id(), size, n * type_.size));
    std::string out(n * type_.size, '\0');
    for (uint64_t i = 0; i < n; ++i) {
      double v = stored_.LoadDouble(encoded.data(), i) / scale_ + offset_;
      KERCHUNK_RETURN_IF_ERROR(Store(type_, out.data(), i, v));
    }
    return out;
  }

  Result<std::string> Encode(std::string_view raw) const override {
    KERCHUNK_RETURN_IF_ERROR(CheckWhole(id(), raw.size(), type_));
    const uint64_t n = raw.size() / type_.size;
    std::string out(n * stored_.size, '\0');
    for (uint64_t i = 0; i < n; ++i) {
      double x = type_.LoadDouble(raw.data(), i);
      // numpy keeps float32 arrays in float32 when combined with Python scalars.
      double v = type_.is_float() && type_.size == 4
                     ? static_cast<float>((static_cast<float>(x) - static_cast<float>(offset_)) *
                                          static_cast<float>(scale_))
                     : (x - offset_) * scale_;
      KERCHUNK_RETURN_IF_ERROR(Store(stored_, out.data(), i, std::nearbyint(v)));
    }
    return out;
  }

  std::optional<uint64_t> EncodedSize(uint64_t decoded_size) const override {
    return decoded_size / type_.size * stored_.size;
  }

  json::Value Config() const override {
    json::Value c = TypeConfig(id(), dtype_, astype_);
    c.Set("scale", json::Value::Double(scale_));
    c.Set("offset", json::Value::Double(offset_));
    return c;
  }

 private:
  Status Store(const NumericType& t, char* out, uint64_t i, double v) const {
    if (t.is_float()) {
      t.StoreDouble(out, i, v);
      return OkStatus();
    }
    double whole = std::trunc(v);
    if (!t.IntegerFits(whole)) {
      return DataLossError("fixedscaleoffset: value {} does not fit the integer type", v);
    }
    t.StoreBits(out, i,
                t.kind == 'u' ? static_cast<uint64_t>(whole)
                              : static_cast<uint64_t>(static_cast<int64_t>(whole)));
    return OkStatus();
  }

  double scale_, offset_;
  std::string dtype_;
  NumericType type_;
  std::string astype_;
  NumericType stored_;
};

}  // namespace

Result<std::shared_ptr<const Codec>> MakeDelta(std::string_view dtype, std::string_view astype) {
  KERCHUNK_ASSIGN_OR_RETURN(NumericType type, ParseType("delta", dtype));
  KERCHUNK_ASSIGN_OR_RETURN(NumericType stored, ParseType("delta", astype));
  if (!(type == stored)) {
    return UnsupportedError("delta: astype \"{}\" differs from dtype \"{}\"", astype, dtype);
  }
  return std::shared_ptr<const Codec>(std::make_shared<DeltaCodec>(std::string(dtype), type));
}

Result<std::shared_ptr<const Codec>> MakeFixedScaleOffset(double scale, double offset,
                                                          std::string_view dtype,
                                                          std::string_view astype) {
  KERCHUNK_ASSIGN_OR_RETURN(NumericType type, ParseType("fixedscaleoffset", dtype));
  KERCHUNK_ASSIGN_OR_RETURN(NumericType stored, ParseType("fixedscaleoffset", astype));
  if (stored.is_float() && stored.size != 8) {
    return UnsupportedError("fixedscaleoffset: astype \"{}\" (numpy would compute in float32)",
                            astype);
  }
  if (scale == 0 || !std::isfinite(scale) || !std::isfinite(offset)) {
    return InvalidArgumentError("fixedscaleoffset: expected a finite non-zero scale, got {}",
                                scale);
  }
  return std::shared_ptr<const Codec>(std::make_shared<FixedScaleOffsetCodec>(
      scale, offset, std::string(dtype), type, std::string(astype), stored));
}

}  // namespace kerchunk::codecs::internal
