// A small JSON document model for metadata (.zarray, .zattrs, .zgroup): building it in scan and
// combine, comparing it by meaning in verify and tests.
//
// It reads and writes what Python's json module does, including the non-standard NaN, Infinity
// and -Infinity tokens that zarr attributes can hold, and prints floats as Python's repr does
// ("1e+20", "0.0"), so documents we write compare equal to Python's text after parsing. Objects
// keep their keys sorted (zarr writes metadata with sort_keys=True). Large reference sets never
// go through this type: refs are parsed by the streaming reader into the columnar model.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::json {

namespace detail {
class Parser;
}

class Value {
 public:
  enum class Type : uint8_t { kNull, kBool, kInt, kUint, kDouble, kString, kArray, kObject };
  using Array = std::vector<Value>;
  using Member = std::pair<std::string, Value>;
  using Object = std::vector<Member>;  // sorted by key

  Value() noexcept : uint_(0) {}  // null
  Value(const Value& other);
  Value(Value&& other) noexcept;
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value() {
    if (type_ >= Type::kString) DestroyPayload();
  }

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  /// A non-negative integer; stored as kInt when it fits in int64.
  static Value Uint(uint64_t u);
  static Value Double(double d);
  static Value String(std::string s);
  static Value MakeArray(Array items = {});
  static Value MakeObject();

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_number() const {
    return type_ == Type::kInt || type_ == Type::kUint || type_ == Type::kDouble;
  }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  // Accessors of another type answer false, 0 or an empty string, array or object.
  bool as_bool() const { return type_ == Type::kBool && bool_; }
  int64_t as_int() const { return type_ == Type::kInt ? int_ : 0; }
  /// A non-negative integer (kInt >= 0 or kUint); 0 for anything else.
  uint64_t as_uint() const {
    if (type_ == Type::kUint) return uint_;
    return type_ == Type::kInt && int_ >= 0 ? static_cast<uint64_t>(int_) : 0;
  }
  /// Any number as a double.
  double as_double() const;
  const std::string& as_string() const { return is_string() ? string_ : EmptyString(); }
  const Array& as_array() const { return is_array() ? array_ : EmptyArray(); }
  /// Of another type: an empty array whose edits are discarded.
  Array& as_array() { return is_array() ? array_ : ScratchArray(); }
  const Object& as_object() const { return is_object() ? object_ : EmptyObject(); }

  /// Object member lookup (nullptr when absent or not an object).
  const Value* Find(std::string_view key) const;
  Value* Find(std::string_view key);
  /// Sets an object member, keeping keys sorted. The value must be an object (on another type
  /// `v` is discarded).
  Value& Set(std::string_view key, Value v);
  /// Removes an object member; returns whether it existed.
  bool Erase(std::string_view key);
  /// Appends to an array (on another type `v` is discarded).
  Value& Push(Value v);

  /// Compact text with sorted keys and Python-compatible numbers.
  std::string Dump() const;
  void DumpTo(std::string& out) const;

  /// Parses JSON text, also accepting NaN, Infinity and -Infinity. Depth is limited (256) so
  /// hostile input cannot exhaust the stack.
  static Result<Value> Parse(std::string_view text);

  /// Equality of meaning: numbers compare by value across int/double (0 == 0.0), NaN equals
  /// NaN, objects compare as maps.
  bool operator==(const Value& other) const;

 private:
  friend class detail::Parser;  // builds arrays and objects in place

  static const std::string& EmptyString();
  static const Array& EmptyArray();
  static const Object& EmptyObject();
  static Array& ScratchArray();
  void DestroyPayload() noexcept;

  // Only the member named by type_ is alive: a document is mostly small scalars and strings, so
  // a Value is 40 bytes instead of the 112 that all of them side by side took.
  Type type_ = Type::kNull;
  union {
    bool bool_;
    int64_t int_;
    uint64_t uint_;
    double double_;
    std::string string_;
    Array array_;
    Object object_;
  };
};

/// Appends `s` (UTF-8) as a quoted JSON string written as Python's json.dumps does by default
/// (ensure_ascii=True): quotes, backslashes and control characters escaped, every non-ASCII
/// character as \uXXXX (a surrogate pair above U+FFFF). zarr 2.x decodes metadata as ASCII, so
/// this is required, not cosmetic. Invalid UTF-8 bytes become U+FFFD.
void AppendString(std::string& out, std::string_view s);

/// Appends code point `cp` (at most U+10FFFF) encoded as UTF-8.
void AppendUtf8(std::string& out, uint32_t cp);

/// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or values above U+10FFFF).
bool IsValidUtf8(std::string_view s);
/// `s` with each byte that starts no well-formed sequence replaced by U+FFFD (JSON text must be
/// valid Unicode); `s` itself, moved, when it is well-formed already.
std::string ToValidUtf8(std::string s);
/// Appends a double as Python's repr does: shortest round-trip digits, "1e+20", "0.0", and the
/// tokens NaN, Infinity, -Infinity.
void AppendDouble(std::string& out, double d);

}  // namespace kerchunk::json
