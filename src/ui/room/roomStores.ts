// The page's one room store, given the browser's WebSocket on the page's own origin. Loaded with
// the room's screens only, when a class is started or joined.

import { createRoomStore, type RoomSocketPort, socketUrl } from '../../store/roomStore.ts';
import { useStore } from 'zustand';
import type { RoomState } from '../../store/roomStore.ts';

const browserSocket: RoomSocketPort = (url, on) => {
  const ws = new WebSocket(url);
  ws.onopen = () => {
    on.open();
  };
  ws.onmessage = (e) => {
    on.message(typeof e.data === 'string' ? e.data : '');
  };
  ws.onclose = () => {
    on.close();
  };
  return {
    send: (text) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
    },
    close: () => {
      ws.close();
    },
  };
};

export const roomStore = createRoomStore({ open: browserSocket, url: socketUrl(location) });

export function useRoom<T>(pick: (s: RoomState) => T): T {
  return useStore(roomStore, pick);
}
