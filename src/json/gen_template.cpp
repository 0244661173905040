#include "gen_template.h"

#include <cctype>

namespace kerchunk::internal {
namespace {

// Recursive-descent evaluator of one template expression.
class Expression {
 public:
  Expression(std::string_view text, const TemplateScope& scope) : s_(text), scope_(scope) {}

  Result<TemplateValue> Evaluate() {
    KERCHUNK_ASSIGN_OR_RETURN(TemplateValue v, Sum());
    Space();
    if (pos_ != s_.size()) return Error("unexpected text");
    return v;
  }

 private:
  Status Error(std::string_view what) const {
    return UnsupportedError("template expression \"{}\": {} at position {}",
                            AbbreviatedTemplate(s_), what, pos_);
  }
  void Space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Take(std::string_view op) {
    Space();
    if (s_.substr(pos_, op.size()) != op) return false;
    pos_ += op.size();
    return true;
  }
  Result<int64_t> AsInt(const TemplateValue& v) {
    if (auto* i = std::get_if<int64_t>(&v)) return *i;
    return Error("arithmetic on a string value");
  }

  Result<TemplateValue> Sum() {
    KERCHUNK_ASSIGN_OR_RETURN(TemplateValue left, Product());
    for (;;) {
      bool plus = Take("+");
      if (!plus && !Take("-")) return left;
      KERCHUNK_ASSIGN_OR_RETURN(int64_t a, AsInt(left));
      KERCHUNK_ASSIGN_OR_RETURN(TemplateValue right, Product());
      KERCHUNK_ASSIGN_OR_RETURN(int64_t b, AsInt(right));
      int64_t r;
      if (plus ? __builtin_add_overflow(a, b, &r) : __builtin_sub_overflow(a, b, &r)) {
        return Error("integer overflow");
      }
      left = r;
    }
  }

  Result<TemplateValue> Product() {
    KERCHUNK_ASSIGN_OR_RETURN(TemplateValue left, Unary());
    for (;;) {
      char op;
      if (Take("//")) {
        op = '/';
      } else if (Take("*")) {
        op = '*';
      } else if (Take("%")) {
        op = '%';
      } else if (Take("/")) {
        return Error("true division '/' (use '//')");
      } else {
        return left;
      }
      KERCHUNK_ASSIGN_OR_RETURN(int64_t a, AsInt(left));
      KERCHUNK_ASSIGN_OR_RETURN(TemplateValue right, Unary());
      KERCHUNK_ASSIGN_OR_RETURN(int64_t b, AsInt(right));
      if (op == '*') {
        int64_t r;
        if (__builtin_mul_overflow(a, b, &r)) return Error("integer overflow");
        left = r;
        continue;
      }
      if (b == 0) return Error("division by zero");
      if (a == INT64_MIN && b == -1) return Error("integer overflow");
      // Python floors both // and % toward negative infinity.
      int64_t q = a / b, m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) {
        q -= 1;
        m += b;
      }
      left = (op == '/') ? q : m;
    }
  }

  // A run of unary minus signs is counted in a loop, not by recursion, so "{{-----...i}}" with
  // any number of signs cannot exhaust the stack.
  Result<TemplateValue> Unary() {
    size_t minus_signs = 0;
    while (Take("-")) ++minus_signs;
    KERCHUNK_ASSIGN_OR_RETURN(TemplateValue v, Primary());
    if (minus_signs == 0) return v;
    KERCHUNK_ASSIGN_OR_RETURN(int64_t a, AsInt(v));
    // Python negates once per sign: -(-x) overflows nowhere but -INT64_MIN does.
    if (a == INT64_MIN) return Error("integer overflow");
    return TemplateValue(minus_signs % 2 == 0 ? a : -a);
  }

  Result<TemplateValue> Primary() {
    if (Take("(")) {
      if (++depth_ > 64) return Error("nesting too deep");
      KERCHUNK_ASSIGN_OR_RETURN(TemplateValue v, Sum());
      --depth_;
      if (!Take(")")) return Error("expected ')'");
      return v;
    }
    Space();
    size_t start = pos_;
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[pos_] - '0', &v)) {
          return Error("integer overflow");
        }
        ++pos_;
      }
      return TemplateValue(v);
    }
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      ++pos_;
    }
    if (start == pos_) return Error("expected a number, a name or '('");
    std::string_view name = s_.substr(start, pos_ - start);
    auto it = scope_.find(name);
    if (it == scope_.end()) return Error(fmt::format("unknown name \"{}\"", name));
    return it->second;
  }

  std::string_view s_;
  const TemplateScope& scope_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

std::string AbbreviatedTemplate(std::string_view text) {
  constexpr size_t kShown = 60;
  if (text.size() <= kShown) return std::string(text);
  return fmt::format("{}...", text.substr(0, kShown));
}

Result<std::string> RenderTemplate(std::string_view text, const TemplateScope& scope) {
  std::string out;
  size_t pos = 0;
  for (;;) {
    size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) break;
    size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) {
      return UnsupportedError("template \"{}\": \"{{{{\" without \"}}}}\"",
                              AbbreviatedTemplate(text));
    }
    out.append(text, pos, open - pos);
    KERCHUNK_ASSIGN_OR_RETURN(
        TemplateValue v, Expression(text.substr(open + 2, close - open - 2), scope).Evaluate());
    if (auto* i = std::get_if<int64_t>(&v)) {
      out += std::to_string(*i);
    } else {
      out += std::get<std::string>(v);
    }
    pos = close + 2;
  }
  out.append(text, pos, text.size() - pos);
  return out;
}

}  // namespace kerchunk::internal
