/** The app's identity, shared by the shell and electron-builder.yml (a test keeps them equal). */
export const appId = 'com.packingstation.desktop';
export const autostartFileName = 'packing-station.desktop';
