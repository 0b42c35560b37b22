// The explorer panel's messages in the page's three languages (the shape of
// web/i18n/catalog.ts). `{name}` marks a value filled in when shown.

import type { RoomMessages } from '../i18n/catalog.js';

export const EXPLORER_MESSAGES: RoomMessages = {
  'zh-Hans': {
    'explorer.title': '开局库',
    'explorer.loading': '正在载入大师对局…',
    'explorer.failed': '开局库未能载入：{why}',
    'explorer.none': '这个局面没有大师对局（少于 {min} 局，或超过 {depth} 步）',
    'explorer.games': '{games} 局',
    'explorer.move': '着法',
    'explorer.red': '红胜',
    'explorer.draw': '和',
    'explorer.black': '黑胜',
    'explorer.notable': '名局',
    'explorer.open': '打开这盘棋',
    'explorer.play': '走 {move}',
    'explorer.source': '大师对局：中国象棋实战数据集（CC BY 4.0）',
  },
  'zh-Hant': {
    'explorer.title': '開局庫',
    'explorer.loading': '正在載入大師對局…',
    'explorer.failed': '開局庫未能載入：{why}',
    'explorer.none': '這個局面沒有大師對局（少於 {min} 局，或超過 {depth} 步）',
    'explorer.games': '{games} 局',
    'explorer.move': '著法',
    'explorer.red': '紅勝',
    'explorer.draw': '和',
    'explorer.black': '黑勝',
    'explorer.notable': '名局',
    'explorer.open': '打開這盤棋',
    'explorer.play': '走 {move}',
    'explorer.source': '大師對局：中國象棋實戰數據集（CC BY 4.0）',
  },
  en: {
    'explorer.title': 'Opening explorer',
    'explorer.loading': 'Loading the master games…',
    'explorer.failed': 'The explorer could not be loaded: {why}',
    'explorer.none': 'No master game reached this position (fewer than {min} games, or deeper than {depth} plies)',
    'explorer.games': '{games} games',
    'explorer.move': 'Move',
    'explorer.red': 'Red wins',
    'explorer.draw': 'Draw',
    'explorer.black': 'Black wins',
    'explorer.notable': 'Notable games',
    'explorer.open': 'Open this game',
    'explorer.play': 'Play {move}',
    'explorer.source': 'Master games: Chinese Chess Practical Dataset (CC BY 4.0)',
  },
};
