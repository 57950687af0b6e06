/*
 * trim(): glibc's malloc_trim(0), for Node. After a burst of large short-lived buffers, glibc keeps
 * the freed pages inside its heap (only the top is ever given back); malloc_trim returns every
 * whole free page to the OS. Elsewhere (musl, macOS) it does nothing and answers false.
 */
#include <node_api.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static napi_value Trim(napi_env env, napi_callback_info info) {
  (void)info;
  bool released = false;
#if defined(__GLIBC__)
  released = malloc_trim(0) == 1;
#endif
  napi_value out;
  napi_get_boolean(env, released, &out);
  return out;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "trim", NAPI_AUTO_LENGTH, Trim, NULL, &fn);
  napi_set_named_property(env, exports, "trim", fn);
  return exports;
}
