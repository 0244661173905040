#include "kerchunk/json/json_value.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>

namespace kerchunk::json {

Value::Value(const Value& other) : type_(other.type_) {
  switch (type_) {
    case Type::kString:
      new (&string_) std::string(other.string_);
      break;
    case Type::kArray:
      new (&array_) Array(other.array_);
      break;
    case Type::kObject:
      new (&object_) Object(other.object_);
      break;
    default:
      uint_ = other.uint_;  // every scalar fits in these 8 bytes
  }
}

Value::Value(Value&& other) noexcept : type_(other.type_) {
  switch (type_) {
    case Type::kString:
      new (&string_) std::string(std::move(other.string_));
      break;
    case Type::kArray:
      new (&array_) Array(std::move(other.array_));
      break;
    case Type::kObject:
      new (&object_) Object(std::move(other.object_));
      break;
    default:
      uint_ = other.uint_;
  }
}

// `other` may live inside this value (v = v.as_array()[0]), so it is taken out before this value
// is destroyed.
Value& Value::operator=(const Value& other) {
  if (this != &other) *this = Value(other);
  return *this;
}

Value& Value::operator=(Value&& other) noexcept {
  if (this == &other) return *this;
  if (type_ < Type::kString && other.type_ < Type::kString) {
    type_ = other.type_;
    uint_ = other.uint_;
    return *this;
  }
  Value taken(std::move(other));
  this->~Value();
  new (this) Value(std::move(taken));
  return *this;
}

void Value::DestroyPayload() noexcept {
  switch (type_) {
    case Type::kString:
      string_.~basic_string();
      break;
    case Type::kArray:
      array_.~Array();
      break;
    case Type::kObject:
      object_.~Object();
      break;
    default:
      break;
  }
}

const std::string& Value::EmptyString() {
  static const std::string empty;
  return empty;
}

const Value::Array& Value::EmptyArray() {
  static const Array empty;
  return empty;
}

const Value::Object& Value::EmptyObject() {
  static const Object empty;
  return empty;
}

Value::Array& Value::ScratchArray() {
  thread_local Array scratch;
  scratch.clear();
  return scratch;
}

Value Value::Bool(bool b) {
  Value v;
  v.type_ = Type::kBool;
  v.bool_ = b;
  return v;
}

Value Value::Int(int64_t i) {
  Value v;
  v.type_ = Type::kInt;
  v.int_ = i;
  return v;
}

Value Value::Uint(uint64_t u) {
  if (u <= static_cast<uint64_t>(INT64_MAX)) return Int(static_cast<int64_t>(u));
  Value v;
  v.type_ = Type::kUint;
  v.uint_ = u;
  return v;
}

Value Value::Double(double d) {
  Value v;
  v.type_ = Type::kDouble;
  v.double_ = d;
  return v;
}

Value Value::String(std::string s) {
  Value v;
  v.type_ = Type::kString;
  new (&v.string_) std::string(std::move(s));
  return v;
}

Value Value::MakeArray(Array items) {
  Value v;
  v.type_ = Type::kArray;
  new (&v.array_) Array(std::move(items));
  return v;
}

Value Value::MakeObject() {
  Value v;
  v.type_ = Type::kObject;
  new (&v.object_) Object();
  return v;
}

double Value::as_double() const {
  switch (type_) {
    case Type::kInt:
      return static_cast<double>(int_);
    case Type::kUint:
      return static_cast<double>(uint_);
    case Type::kDouble:
      return double_;
    default:
      return 0;
  }
}

namespace {

template <typename Object>
auto LowerBound(Object& o, std::string_view key) {
  return std::lower_bound(o.begin(), o.end(), key, [](const Value::Member& m, std::string_view k) {
    return m.first.compare(k) < 0;
  });
}

// Keeps keys sorted; a repeated key takes the new value. Keys usually arrive sorted (zarr writes
// them so), which the first test turns into an append.
Value& Insert(Value::Object& o, std::string&& key, Value&& v) {
  if (o.empty() || o.back().first < key) return o.emplace_back(std::move(key), std::move(v)).second;
  auto it = LowerBound(o, key);
  if (it->first == key) {
    it->second = std::move(v);
    return it->second;
  }
  return o.emplace(it, std::move(key), std::move(v))->second;
}

// Sorts members parsed out of order; of a repeated key the last one stays, as a Set per member
// would have left it.
void SortKeepingLast(Value::Object& o) {
  std::stable_sort(o.begin(), o.end(), [](const Value::Member& a, const Value::Member& b) {
    return a.first < b.first;
  });
  size_t kept = 0;
  for (size_t i = 0; i < o.size(); ++i) {
    if (i + 1 < o.size() && o[i + 1].first == o[i].first) continue;
    if (kept != i) o[kept] = std::move(o[i]);
    ++kept;
  }
  o.erase(o.begin() + static_cast<std::ptrdiff_t>(kept), o.end());
}

// Where Set and Push put a value given to a non-object or non-array: the old layout kept it in
// a container that nothing printed or compared, so it is dropped the same way.
Value& Discard(Value v) {
  thread_local Value scratch;
  scratch = std::move(v);
  return scratch;
}

}  // namespace

const Value* Value::Find(std::string_view key) const {
  if (type_ != Type::kObject) return nullptr;
  auto it = LowerBound(object_, key);
  if (it == object_.end() || it->first != key) return nullptr;
  return &it->second;
}

Value* Value::Find(std::string_view key) {
  return const_cast<Value*>(static_cast<const Value*>(this)->Find(key));
}

Value& Value::Set(std::string_view key, Value v) {
  if (type_ != Type::kObject) return Discard(std::move(v));
  return Insert(object_, std::string(key), std::move(v));
}

bool Value::Erase(std::string_view key) {
  if (type_ != Type::kObject) return false;
  auto it = LowerBound(object_, key);
  if (it == object_.end() || it->first != key) return false;
  object_.erase(it);
  return true;
}

Value& Value::Push(Value v) {
  if (type_ != Type::kArray) return Discard(std::move(v));
  return array_.emplace_back(std::move(v));
}

namespace {

// Decodes the UTF-8 sequence at s[i] and advances i; returns -1 (advancing one byte) for a
// malformed, overlong or surrogate sequence.
int32_t NextCodePoint(std::string_view s, size_t& i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t b0 = byte(i);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int extra;
  int32_t cp, min;
  if ((b0 & 0xE0) == 0xC0) {
    extra = 1, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    extra = 2, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    extra = 3, cp = b0 & 0x07, min = 0x10000;
  } else {
    ++i;
    return -1;
  }
  if (s.size() - i <= static_cast<size_t>(extra)) {
    ++i;
    return -1;
  }
  for (int k = 1; k <= extra; ++k) {
    uint8_t b = byte(i + k);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return -1;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return -1;
  }
  i += extra + 1;
  return cp;
}

void AppendUnicodeEscape(uint32_t unit, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
}

}  // namespace

namespace {

// The length of the longest well-formed prefix of `s`. Texts are mostly ASCII, which is checked
// 8 bytes at a time.
size_t ValidUtf8PrefixLength(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    if (i + 8 <= s.size()) {
      uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const size_t at = i;
    if (NextCodePoint(s, i) < 0) return at;
  }
  return i;
}

}  // namespace

bool IsValidUtf8(std::string_view s) { return ValidUtf8PrefixLength(s) == s.size(); }

std::string ToValidUtf8(std::string s) {
  size_t i = ValidUtf8PrefixLength(s);
  if (i == s.size()) return s;
  std::string out = s.substr(0, i);
  out.reserve(s.size() + 2);
  while (i < s.size()) {
    const size_t at = i;
    if (NextCodePoint(s, i) < 0) {
      out.append("\xEF\xBF\xBD");  // one U+FFFD for each byte that starts no valid sequence
    } else {
      out.append(s, at, i - at);
    }
  }
  return out;
}

namespace {

// Whether any of the 8 bytes of `w` needs an escape: below ' ', '"', '\\', or from DEL (0x7f) up.
// May say yes for a word that needs none (the caller then looks byte by byte), never no for one
// that does.
bool WordNeedsEscape(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  auto has_zero = [](uint64_t x) { return ((x - kOnes) & ~x & kHigh) != 0; };
  const bool control = ((w - kOnes * 0x20) & ~w & kHigh) != 0;  // some byte < 0x20
  const bool high = ((w | (w + kOnes)) & kHigh) != 0;           // some byte >= 0x7f
  return control || high || has_zero(w ^ (kOnes * '"')) || has_zero(w ^ (kOnes * '\\'));
}

}  // namespace

void AppendString(std::string& out, std::string_view s) {
  out += '"';
  size_t start = 0;  // start of the pending run of bytes that need no escape
  for (size_t i = 0; i < s.size();) {
    if (i + 8 <= s.size()) {  // keys, URLs and attribute texts are mostly plain ASCII
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if (!WordNeedsEscape(w)) {
        i += 8;
        continue;
      }
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    // Python escapes everything outside ' '..'~' (DEL 0x7f too).
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    out.append(s, start, i - start);
    int32_t cp = NextCodePoint(s, i);
    switch (cp) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (cp < 0) {
          AppendUnicodeEscape(0xFFFD, out);  // invalid UTF-8 byte: the replacement character
        } else if (cp >= 0x10000) {
          AppendUnicodeEscape(0xD800 + ((cp - 0x10000) >> 10), out);
          AppendUnicodeEscape(0xDC00 + ((cp - 0x10000) & 0x3FF), out);
        } else {
          AppendUnicodeEscape(static_cast<uint32_t>(cp), out);
        }
    }
    start = i;
  }
  out.append(s, start, s.size() - start);
  out += '"';
}

void AppendDouble(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "NaN";
    return;
  }
  if (std::isinf(d)) {
    out += d > 0 ? "Infinity" : "-Infinity";
    return;
  }
  // Python's repr: shortest round-trip digits; scientific when exponent < -4 or >= 16.
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string_view sci(buf, end - buf);
  size_t e = sci.find('e');
  int exponent = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+'), sci.data() + sci.size(), exponent);
  std::string_view mantissa = sci.substr(0, e);
  if (exponent < -4 || exponent >= 16) {
    out.append(mantissa);
    out += 'e';
    out += exponent < 0 ? '-' : '+';
    int a = std::abs(exponent);
    if (a < 10) out += '0';
    out += std::to_string(a);
    return;
  }
  auto [fend, fec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
  std::string_view fixed(buf, fend - buf);
  out.append(fixed);
  if (fixed.find('.') == std::string_view::npos) out += ".0";
}

void Value::DumpTo(std::string& out) const {
  switch (type_) {
    case Type::kNull:
      out += "null";
      break;
    case Type::kBool:
      out += bool_ ? "true" : "false";
      break;
    case Type::kInt:
      out += std::to_string(int_);
      break;
    case Type::kUint:
      out += std::to_string(uint_);
      break;
    case Type::kDouble:
      AppendDouble(out, double_);
      break;
    case Type::kString:
      AppendString(out, string_);
      break;
    case Type::kArray:
      out += '[';
      for (size_t i = 0; i < array_.size(); ++i) {
        if (i) out += ',';
        array_[i].DumpTo(out);
      }
      out += ']';
      break;
    case Type::kObject:
      out += '{';
      for (size_t i = 0; i < object_.size(); ++i) {
        if (i) out += ',';
        AppendString(out, object_[i].first);
        out += ':';
        object_[i].second.DumpTo(out);
      }
      out += '}';
      break;
  }
}

std::string Value::Dump() const {
  std::string out;
  DumpTo(out);
  return out;
}

bool Value::operator==(const Value& o) const {
  if (is_number() && o.is_number()) {
    if (type_ == Type::kDouble || o.type_ == Type::kDouble) {
      double a = as_double(), b = o.as_double();
      return a == b || (std::isnan(a) && std::isnan(b));
    }
    if (type_ != o.type_) return false;  // kInt vs kUint never hold the same value
    return type_ == Type::kInt ? int_ == o.int_ : uint_ == o.uint_;
  }
  if (type_ != o.type_) return false;
  switch (type_) {
    case Type::kNull:
      return true;
    case Type::kBool:
      return bool_ == o.bool_;
    case Type::kString:
      return string_ == o.string_;
    case Type::kArray:
      return array_ == o.array_;
    case Type::kObject:
      return object_ == o.object_;
    default:
      return false;
  }
}

namespace detail {

// Members and items of the objects and arrays being parsed, innermost last: each container is
// then allocated once at its size instead of growing by doubling. Kept per thread, so parsing
// many small documents allocates them once.
struct ParseStacks {
  std::vector<Value::Member> members;
  std::vector<Value> items;
};

// Recursive-descent parser with a depth limit. Values are returned directly and the first error
// is kept aside: wrapping every level in a Result moved each value once more.
class Parser {
 public:
  Parser(std::string_view text, ParseStacks& stacks) : s_(text), stacks_(stacks) {}

  Result<Value> ParseDocument() {
    Value v = ParseValue(0);
    if (!failed_) {
      SkipSpace();
      if (pos_ != s_.size()) Fail("unexpected text after the JSON value");
    }
    stacks_.members.clear();  // what an error left
    stacks_.items.clear();
    if (failed_) return std::move(error_);
    return v;
  }

 private:
  static constexpr int kMaxDepth = 256;

  // Records the first error; callers return at once, so it is the only one.
  void Fail(std::string_view what) {
    failed_ = true;
    error_ = InvalidArgumentError("invalid JSON at offset {}: {}", pos_, what);
  }
  void SkipSpace() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool Consume(std::string_view token) {
    if (s_.substr(pos_, token.size()) == token) {
      pos_ += token.size();
      return true;
    }
    return false;
  }
  bool Consume(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Value ParseValue(int depth) {
    if (depth > kMaxDepth) {
      Fail("nesting deeper than 256 levels");
      return Value();
    }
    SkipSpace();
    if (pos_ >= s_.size()) {
      Fail("unexpected end of input");
      return Value();
    }
    switch (s_[pos_]) {
      case '{':
        return ParseObject(depth);
      case '[':
        return ParseArray(depth);
      case '"':
        return ParseStringValue();
      default:
        return ParseScalar();
    }
  }

  // Words first, then numbers; a word that does not match is reported as a bad number.
  Value ParseScalar() {
    switch (s_[pos_]) {
      case 'n':
        if (Consume("null")) return Value::Null();
        break;
      case 't':
        if (Consume("true")) return Value::Bool(true);
        break;
      case 'f':
        if (Consume("false")) return Value::Bool(false);
        break;
      case 'N':
        if (Consume("NaN")) return Value::Double(std::nan(""));
        break;
      case 'I':
        if (Consume("Infinity")) return Value::Double(INFINITY);
        break;
      case '-':
        if (Consume("-Infinity")) return Value::Double(-INFINITY);
        break;
      default:
        break;
    }
    return ParseNumber();
  }

  Value ParseStringValue() {
    Value v;
    v.type_ = Value::Type::kString;
    new (&v.string_) std::string();
    ParseString(v.string_);
    return v;
  }

  Value ParseObject(int depth) {
    ++pos_;  // '{'
    Value obj = Value::MakeObject();
    SkipSpace();
    if (Consume('}')) return obj;
    size_t base = stacks_.members.size();
    bool sorted = true;
    for (;;) {
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"') {
        Fail("expected a string key");
        return obj;
      }
      std::string key;
      if (!ParseString(key)) return obj;
      SkipSpace();
      if (!Consume(':')) {
        Fail("expected ':'");
        return obj;
      }
      Value v = ParseValue(depth + 1);
      if (failed_) return obj;
      auto& members = stacks_.members;
      if (members.size() > base && !(members.back().first < key)) sorted = false;
      members.emplace_back(std::move(key), std::move(v));
      SkipSpace();
      if (Consume('}')) {
        TakeMembers(base, sorted, obj.object_);
        return obj;
      }
      if (!Consume(',')) {
        Fail("expected ',' or '}'");
        return obj;
      }
    }
  }

  Value ParseArray(int depth) {
    ++pos_;  // '['
    Value arr = Value::MakeArray();
    SkipSpace();
    if (Consume(']')) return arr;
    size_t base = stacks_.items.size();
    for (;;) {
      Value v = ParseValue(depth + 1);
      if (failed_) return arr;
      stacks_.items.push_back(std::move(v));
      SkipSpace();
      if (Consume(']')) {
        TakeFromStack(stacks_.items, base, arr.array_);
        return arr;
      }
      if (!Consume(',')) {
        Fail("expected ',' or ']'");
        return arr;
      }
    }
  }

  void TakeMembers(size_t base, bool sorted, Value::Object& out) {
    TakeFromStack(stacks_.members, base, out);
    if (!sorted) SortKeepingLast(out);  // a repeated key keeps the last value, as Python does
  }

  template <typename T>
  static void TakeFromStack(std::vector<T>& stack, size_t base, std::vector<T>& out) {
    auto first = stack.begin() + static_cast<std::ptrdiff_t>(base);
    out.assign(std::make_move_iterator(first), std::make_move_iterator(stack.end()));
    stack.erase(first, stack.end());
  }

  bool ParseHex4(uint32_t& v) {
    if (pos_ + 4 > s_.size()) {
      Fail("truncated \\u escape");
      return false;
    }
    auto [end, ec] = std::from_chars(s_.data() + pos_, s_.data() + pos_ + 4, v, 16);
    if (ec != std::errc() || end != s_.data() + pos_ + 4) {
      Fail("bad \\u escape");
      return false;
    }
    pos_ += 4;
    return true;
  }

  // The end of the run of bytes from `i` that need no decoding: scanning eight bytes at a time
  // is what makes long attribute texts cheap.
  size_t PlainRunEnd(size_t i) const {
    while (i + 8 <= s_.size()) {
      uint64_t word;
      std::memcpy(&word, s_.data() + i, 8);
      if (HasSpecialByte(word)) break;
      i += 8;
    }
    while (i < s_.size() && s_[i] != '"' && s_[i] != '\\' &&
           static_cast<unsigned char>(s_[i]) >= 0x20) {
      ++i;
    }
    return i;
  }

  // Whether any byte of `word` is a quote, a backslash or a control character (the classic
  // "has zero byte" and "has byte less than" bit tricks, exact as a yes/no answer).
  static bool HasSpecialByte(uint64_t word) {
    constexpr uint64_t kOnes = 0x0101010101010101, kHighs = 0x8080808080808080;
    auto has_zero = [](uint64_t x) { return (x - kOnes) & ~x & kHighs; };
    uint64_t quote = has_zero(word ^ (kOnes * '"'));
    uint64_t backslash = has_zero(word ^ (kOnes * '\\'));
    uint64_t control = (word - kOnes * 0x20) & ~word & kHighs;
    return (quote | backslash | control) != 0;
  }

  // Appends the string at pos_ (its opening quote) to `out`.
  bool ParseString(std::string& out) {
    ++pos_;  // '"'
    for (;;) {
      // Attribute texts are long runs of plain characters: copy each run at once.
      size_t run = PlainRunEnd(pos_);
      out.append(s_.data() + pos_, run - pos_);
      pos_ = run;
      if (pos_ >= s_.size()) {
        Fail("unterminated string");
        return false;
      }
      char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) {
        Fail("control character in string");
        return false;
      }
      if (!ParseEscape(out)) return false;
    }
  }

  // Appends the character escaped after the backslash just read.
  bool ParseEscape(std::string& out) {
    if (pos_ >= s_.size()) {
      Fail("unterminated escape");
      return false;
    }
    char e = s_[pos_++];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        return true;
      case 'b':
        out += '\b';
        return true;
      case 'f':
        out += '\f';
        return true;
      case 'n':
        out += '\n';
        return true;
      case 'r':
        out += '\r';
        return true;
      case 't':
        out += '\t';
        return true;
      case 'u':
        return ParseUnicodeEscape(out);
      default:
        Fail("unknown escape");
        return false;
    }
  }

  // A high surrogate followed by a low one is one code point; any other is kept as it is.
  bool ParseUnicodeEscape(std::string& out) {
    uint32_t cp;
    if (!ParseHex4(cp)) return false;
    if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
      pos_ += 2;
      uint32_t lo;
      if (!ParseHex4(lo)) return false;
      if (lo >= 0xDC00 && lo < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      } else {
        AppendUtf8(out, cp);
        cp = lo;
      }
    }
    AppendUtf8(out, cp);
    return true;
  }

  Value ParseNumber() {
    size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    bool is_float = false;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c >= '0' && c <= '9') {
        ++pos_;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        is_float = true;
        ++pos_;
      } else {
        break;
      }
    }
    std::string_view text = s_.substr(start, pos_ - start);
    if (text.empty() || text == "-") {
      pos_ = start;
      Fail("expected a value");
      return Value();
    }
    const char* b = text.data();
    const char* e = b + text.size();
    if (!is_float) {
      int64_t i;
      auto r = std::from_chars(b, e, i);
      if (r.ec == std::errc() && r.ptr == e) return Value::Int(i);
      uint64_t u;
      r = std::from_chars(b, e, u);
      if (r.ec == std::errc() && r.ptr == e) return Value::Uint(u);
    }
    double d;
    auto r = std::from_chars(b, e, d);
    if (r.ec == std::errc::result_out_of_range && r.ptr == e) {
      // Python reads 1e400 as inf and 1e-400 as 0.0; strtod gives the same.
      return Value::Double(std::strtod(std::string(text).c_str(), nullptr));
    }
    if (r.ec != std::errc() || r.ptr != e) {
      pos_ = start;
      Fail("malformed number");
      return Value();
    }
    return Value::Double(d);
  }

  std::string_view s_;
  size_t pos_ = 0;
  ParseStacks& stacks_;
  bool failed_ = false;
  Status error_;
};

}  // namespace detail

Result<Value> Value::Parse(std::string_view text) {
  thread_local detail::ParseStacks stacks;
  return detail::Parser(text, stacks).ParseDocument();
}

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace kerchunk::json
