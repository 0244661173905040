// The one error model of the library: every fallible function returns a Status or a Result<T>.
// Modelled on tensorstore's util/result.h, reduced to what this project needs (C++20 has no
// std::expected). Messages read "expected X, got Y"; each layer adds its context (file, dataset,
// chunk key, byte address) with Annotate().
#pragma once

#include <fmt/format.h>

#include <cassert>
#include <concepts>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace kerchunk {

/// A fixed set of error codes. Commands map them to exit statuses (see README "Exit status").
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  ///< The caller asked for something malformed (usage, bad option value).
  kNotFound,         ///< A file, key or object does not exist.
  kDataLoss,         ///< Input bytes are truncated, corrupt or inconsistent.
  kUnsupported,      ///< Valid input this toolkit does not translate (e.g. an unknown filter).
  kIoError,          ///< The operating system failed a read or write.
  kInternal,         ///< A bug: an invariant of this library does not hold.
};

/// Short lower-case name of a code, e.g. "data loss".
std::string_view StatusCodeName(StatusCode code);

/// Success, or an error code with a one-line message.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  /// Prefixes the message with context, e.g. Annotate("dataset /tas") gives
  /// "dataset /tas: <message>". A no-op on success, so it can be applied unconditionally.
  Status& Annotate(std::string_view context) &;
  Status&& Annotate(std::string_view context) &&;
  /// The same with the context formatted by fmt, only when there is an error, so that success
  /// paths format nothing: Annotate("array \"{}\"", path). (The arguments themselves are
  /// evaluated as usual: pass what already exists, or use the form below.)
  template <typename Arg, typename... Args>
  Status& Annotate(fmt::format_string<Arg, Args...> format, Arg&& arg, Args&&... args) & {
    if (!ok()) {
      Annotate(std::string_view(
          fmt::format(format, std::forward<Arg>(arg), std::forward<Args>(args)...)));
    }
    return *this;
  }
  template <typename Arg, typename... Args>
  Status&& Annotate(fmt::format_string<Arg, Args...> format, Arg&& arg, Args&&... args) && {
    if (!ok()) {
      Annotate(std::string_view(
          fmt::format(format, std::forward<Arg>(arg), std::forward<Args>(args)...)));
    }
    return std::move(*this);
  }
  /// The same with the context computed by `context()` (returning a string), called only when
  /// there is an error: for a context that costs something to build, such as a chunk key.
  template <std::invocable F>
  Status& Annotate(F&& context) & {
    if (!ok()) Annotate(std::string_view(std::forward<F>(context)()));
    return *this;
  }
  template <std::invocable F>
  Status&& Annotate(F&& context) && {
    if (!ok()) Annotate(std::string_view(std::forward<F>(context)()));
    return std::move(*this);
  }

  /// "data loss: file.h5: ..." for logs; commands print message() alone.
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status OkStatus() { return Status(); }

template <typename... Args>
Status InvalidArgumentError(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kInvalidArgument, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status NotFoundError(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kNotFound, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status DataLossError(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kDataLoss, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status UnsupportedError(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kUnsupported, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status IoError(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kIoError, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
Status InternalError(fmt::format_string<Args...> f, Args&&... args) {
  return Status(StatusCode::kInternal, fmt::format(f, std::forward<Args>(args)...));
}

/// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}        // NOLINT: implicit
  Result(Status status) : state_(std::in_place_index<1>, std::move(status)) {  // NOLINT
    assert(!std::get<1>(state_).ok() && "a Result cannot hold an OK status without a value");
  }

  bool ok() const { return state_.index() == 0; }
  /// The error; OK when a value is held.
  Status status() const& { return ok() ? Status() : std::get<1>(state_); }
  Status status() && { return ok() ? Status() : std::move(std::get<1>(state_)); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  /// Adds context to the held error; no-op on success. The same three forms as
  /// Status::Annotate: a string, a format string and its arguments (formatted only on error),
  /// or a callable returning the context (called only on error).
  Result& Annotate(std::string_view context) & {
    if (!ok()) std::get<1>(state_).Annotate(context);
    return *this;
  }
  Result&& Annotate(std::string_view context) && {
    if (!ok()) std::get<1>(state_).Annotate(context);
    return std::move(*this);
  }
  template <typename Arg, typename... Args>
  Result& Annotate(fmt::format_string<Arg, Args...> format, Arg&& arg, Args&&... args) & {
    if (!ok()) {
      Annotate(std::string_view(
          fmt::format(format, std::forward<Arg>(arg), std::forward<Args>(args)...)));
    }
    return *this;
  }
  template <typename Arg, typename... Args>
  Result&& Annotate(fmt::format_string<Arg, Args...> format, Arg&& arg, Args&&... args) && {
    if (!ok()) {
      Annotate(std::string_view(
          fmt::format(format, std::forward<Arg>(arg), std::forward<Args>(args)...)));
    }
    return std::move(*this);
  }
  template <std::invocable F>
  Result& Annotate(F&& context) & {
    if (!ok()) std::get<1>(state_).Annotate(std::forward<F>(context));
    return *this;
  }
  template <std::invocable F>
  Result&& Annotate(F&& context) && {
    if (!ok()) std::get<1>(state_).Annotate(std::forward<F>(context));
    return std::move(*this);
  }

 private:
  std::variant<T, Status> state_;
};

namespace internal {
// The error of a failed Status or Result held by KERCHUNK_RETURN_IF_ERROR. Called only after
// ok() said false, so a successful call never builds a Status (the byte reader's checks run
// millions of times per scan).
inline Status TakeStatus(Status&& s) { return std::move(s); }
template <typename T>
Status TakeStatus(Result<T>&& r) {
  return std::move(r).status();
}
}  // namespace internal

}  // namespace kerchunk

#define KERCHUNK_CONCAT_INNER(a, b) a##b
#define KERCHUNK_CONCAT(a, b) KERCHUNK_CONCAT_INNER(a, b)

/// Returns the Status of `expr` (a Status or a Result) from the enclosing function on error.
// `expr` is held by value: a returned Status or Result is elided into it, and an rvalue
// reference (Status::Annotate on a temporary returns one) must not outlive its temporary.
#define KERCHUNK_RETURN_IF_ERROR(expr)                                      \
  do {                                                                      \
    auto kerchunk_status_ = (expr);                                         \
    if (!kerchunk_status_.ok()) [[unlikely]] {                              \
      return ::kerchunk::internal::TakeStatus(std::move(kerchunk_status_)); \
    }                                                                       \
  } while (false)

/// `KERCHUNK_ASSIGN_OR_RETURN(auto x, F());` declares x = *F() or returns F()'s error.
#define KERCHUNK_ASSIGN_OR_RETURN(lhs, expr) \
  KERCHUNK_ASSIGN_OR_RETURN_IMPL(KERCHUNK_CONCAT(kerchunk_result_, __LINE__), lhs, expr)
#define KERCHUNK_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return std::move(tmp).status();       \
  lhs = std::move(tmp).value()
