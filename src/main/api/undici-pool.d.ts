// The station loads undici's connection pool on its own (src/main/api/transport.ts): the package's
// entry loads all of undici. Its types are those of the package.
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';

  const PoolClass: typeof Pool;
  export default PoolClass;
}
