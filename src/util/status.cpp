#include "kerchunk/util/status.h"

namespace kerchunk {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      return "invalid argument";
    case StatusCode::kNotFound:
      return "not found";
    case StatusCode::kDataLoss:
      return "data loss";
    case StatusCode::kUnsupported:
      return "unsupported";
    case StatusCode::kIoError:
      return "i/o error";
    case StatusCode::kInternal:
      return "internal error";
  }
  return "unknown";
}

Status& Status::Annotate(std::string_view context) & {
  if (!ok() && !context.empty()) message_ = fmt::format("{}: {}", context, message_);
  return *this;
}

Status&& Status::Annotate(std::string_view context) && {
  Annotate(context);
  return std::move(*this);
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  return fmt::format("{}: {}", StatusCodeName(code_), message_);
}

}  // namespace kerchunk
