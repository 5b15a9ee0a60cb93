#pragma once
// Images in a conversation (a client's capture_view rendering) and their encodings on the wire.
// The providers send an image as image content — OpenAI Chat Completions as an `image_url` data
// URL in a user message (its tool messages carry text only), Anthropic Messages as an `image`
// block inside the tool_result — or, when the model does not accept images
// (ProviderSettings::images), as a short text note in its place.

#include <string>

namespace tw::llm {

struct ImageContent {
  std::string mime_type;  // image/png, image/jpeg, image/webp, image/gif
  std::string data;       // the raw bytes (not base64)
};

// Whether providers accept this MIME type as image content.
bool IsSupportedImageType(const std::string& mime_type);
// The bytes in base64 (standard alphabet, padded), as both protocols want them.
std::string ImageBase64(const ImageContent& image);
// "data:image/png;base64,...."
std::string ImageDataUrl(const ImageContent& image);
// What a model that cannot see images reads instead of one.
std::string ImageOmittedNote(const ImageContent& image);

}  // namespace tw::llm
