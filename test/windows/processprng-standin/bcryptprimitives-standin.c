/*
 * TEST TOOLING ONLY — never shipped, never installed on a real PC.
 *
 * Wine 8 has no bcryptprimitives.dll. The Windows builds of @napi-rs/keyring and libsql import
 * ProcessPrng from it (Rust's standard library asks it for random bytes), so without it neither
 * loads under Wine ("Cannot find native binding"). Real Windows 10/11 has the DLL. This stand-in
 * exports only ProcessPrng and fills the buffer from advapi32's SystemFunction036 (RtlGenRandom),
 * the system's own random source. scripts/test-windows.sh builds it with Debian's mingw-w64 gcc
 * into the stage's throwaway Wine prefix.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
