// Exact conversion of coordinate values between CF time units (see cf_time.h).
#include <bit>
#include <cmath>
#include <numeric>

#include "kerchunk/combine/cf_time.h"

namespace kerchunk {
namespace {

using i128 = Int128;
using u128 = UInt128;

// Exact comparison of an integer with a double.
std::partial_ordering CompareIntDouble(int64_t i, double d) {
  if (std::isnan(d)) return std::partial_ordering::unordered;
  if (d >= 0x1p63) return std::partial_ordering::less;
  if (d < -0x1p63) return std::partial_ordering::greater;
  double f = std::floor(d);
  auto fi = static_cast<int64_t>(f);
  if (i != fi) return i < fi ? std::partial_ordering::less : std::partial_ordering::greater;
  return d > f ? std::partial_ordering::less : std::partial_ordering::equivalent;
}

int BitLength(u128 v) {
  const auto high = static_cast<uint64_t>(v >> 64);
  if (high != 0) return 64 + std::bit_width(high);
  return std::bit_width(static_cast<uint64_t>(v));
}

bool FitsInt64(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

// v = mantissa * 2^exponent exactly, with an odd mantissa (or 0).
void Decompose(double v, int64_t& mantissa, int& exponent) {
  int e2 = 0;
  double f = std::frexp(v, &e2);  // v = f * 2^e2, 0.5 <= |f| < 1
  mantissa = static_cast<int64_t>(std::ldexp(f, 53));
  exponent = e2 - 53;
  if (mantissa == 0) {
    exponent = 0;
    return;
  }
  while ((mantissa & 1) == 0) {
    mantissa /= 2;
    ++exponent;
  }
}

}  // namespace

std::partial_ordering CoordinateValue::operator<=>(const CoordinateValue& o) const {
  if (is_int && o.is_int) return i <=> o.i;
  if (!is_int && !o.is_int) return d <=> o.d;
  if (is_int) return CompareIntDouble(i, o.d);
  auto r = CompareIntDouble(o.i, d);
  if (r == std::partial_ordering::less) return std::partial_ordering::greater;
  if (r == std::partial_ordering::greater) return std::partial_ordering::less;
  return r;
}

double RoundRationalToDouble(i128 n, i128 d) {
  if (n == 0) return 0.0;
  bool negative = n < 0;
  u128 a = negative ? -static_cast<u128>(n) : static_cast<u128>(n);
  const u128 b = static_cast<u128>(d);
  // Build a quotient q with exactly 54 significant bits (53 + one rounding bit) such that
  // a / b = (q + r / b) * 2^shift, then round q's last bit away with ties to even.
  u128 q = a / b, r = a % b;
  int shift = 0;
  int bits = BitLength(q);
  bool sticky = false;
  if (bits > 54) {
    int drop = bits - 54;
    sticky = (q & ((u128{1} << drop) - 1)) != 0 || r != 0;
    q >>= drop;
    shift = drop;
  } else {
    // Long division, one fraction bit at a time; b < 2^126 so 2r cannot overflow. While the
    // quotient is still 0, the zero bits before its first 1 are skipped at once: r shifted to
    // one bit shorter than b stays below b.
    if (q == 0) {
      const int skip = BitLength(b) - BitLength(r) - 1;
      if (skip > 0) {
        r <<= skip;
        shift -= skip;
      }
    }
    while (BitLength(q) < 54) {
      r <<= 1;
      q = (q << 1) | (r >= b ? 1 : 0);
      if (r >= b) r -= b;
      --shift;
    }
    sticky = r != 0;
  }
  u128 mantissa = q >> 1;
  bool half = (q & 1) != 0;
  if (half && (sticky || (mantissa & 1) != 0)) ++mantissa;  // may become 2^53: still exact
  double v = std::ldexp(static_cast<double>(static_cast<uint64_t>(mantissa)), shift + 1);
  return negative ? -v : v;
}

Result<CfTimeConversion> CfTimeConversion::Make(const CfTimeUnits& from, const CfTimeUnits& to) {
  if (from.calendar != to.calendar) {
    return InvalidArgumentError("cannot convert times from the {} calendar to the {} calendar",
                                CfCalendarName(from.calendar), CfCalendarName(to.calendar));
  }
  CfTimeConversion c;
  c.num_ = from.unit_us;
  c.offset_ = from.epoch_us - to.epoch_us;
  c.den_ = to.unit_us;
  int64_t g = std::gcd(std::gcd(c.num_, c.den_), c.offset_);
  if (g > 1) {
    c.num_ /= g;
    c.den_ /= g;
    c.offset_ /= g;
  }
  return c;
}

Result<CoordinateValue> CfTimeConversion::Convert(const CoordinateValue& v) const {
  if (identity()) return v;
  i128 n = 0, d = den_;
  if (v.is_int) {
    n = static_cast<i128>(v.i) * num_ + offset_;
  } else {
    if (!std::isfinite(v.d)) {
      return InvalidArgumentError("cannot convert the time value {}", v.d);
    }
    int64_t mantissa = 0;
    int exponent = 0;
    Decompose(v.d, mantissa, exponent);
    // mantissa < 2^53 and num_, offset_, den_ < 2^63: scaling by 2^|exponent| must stay below
    // 2^126 so that the products and the rounding's long division fit 128 bits.
    i128 scaled_offset = offset_;
    const int mantissa_bits = BitLength(static_cast<u128>(mantissa < 0 ? -mantissa : mantissa));
    if (exponent >= 0) {
      if (mantissa_bits + exponent + BitLength(static_cast<u128>(num_)) > 124) {
        return InvalidArgumentError("time value {} is too large to convert exactly", v.d);
      }
      n = (static_cast<i128>(mantissa) << exponent) * num_ + scaled_offset;
    } else {
      int s = -exponent;
      int offset_bits = BitLength(static_cast<u128>(offset_ < 0 ? -static_cast<i128>(offset_)
                                                                : static_cast<i128>(offset_)));
      if (offset_bits + s > 124 || BitLength(static_cast<u128>(den_)) + s > 124) {
        return InvalidArgumentError("time value {} has too many fraction bits to convert exactly",
                                    v.d);
      }
      n = static_cast<i128>(mantissa) * num_ + (scaled_offset << s);
      d = static_cast<i128>(den_) << s;
    }
  }
  // Integers stay integers when the result is one; everything else becomes a double, rounded
  // once (exact when the result is representable).
  if (v.is_int && n % d == 0 && FitsInt64(n / d)) {
    return CoordinateValue::Int(static_cast<int64_t>(n / d));
  }
  return CoordinateValue::Float(RoundRationalToDouble(n, d));
}

}  // namespace kerchunk
