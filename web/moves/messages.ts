// The moves room's messages: the list, its edits and the comment box.

import type { RoomMessages } from '../i18n/catalog.js';

export const MOVES_MESSAGES: RoomMessages = {
  'zh-Hans': {
    'moves.label': '着法',
    'moves.promote': '升为主变',
    'moves.raise': '上移变着',
    'moves.delete': '删除此着及其后',
    'moves.menu.show': '显示此着',
    'moves.comment': '注释',
    'moves.comment-placeholder': '为此着写注释…',
    'moves.comment-start-placeholder': '为整局写注释…',
    'moves.book': '谱',
    'moves.book-title': 'Kirin 从开局库走出此着',
    'moves.annotated': '棋谱中的标注',
  },
  'zh-Hant': {
    'moves.label': '著法',
    'moves.promote': '升為主變',
    'moves.raise': '上移變著',
    'moves.delete': '刪除此著及其後',
    'moves.menu.show': '顯示此著',
    'moves.comment': '註釋',
    'moves.comment-placeholder': '為此著寫註釋…',
    'moves.comment-start-placeholder': '為整局寫註釋…',
    'moves.book': '譜',
    'moves.book-title': 'Kirin 從開局庫走出此著',
    'moves.annotated': '棋譜中的標註',
  },
  en: {
    'moves.label': 'moves',
    'moves.promote': 'Promote to main line',
    'moves.raise': 'Move variation up',
    'moves.delete': 'Delete from here',
    'moves.menu.show': 'Show this move',
    'moves.comment': 'comment',
    'moves.comment-placeholder': 'A comment on this move...',
    'moves.comment-start-placeholder': 'A comment on the game...',
    'moves.book': 'book',
    'moves.book-title': 'Kirin played this from its opening book',
    'moves.annotated': 'annotated in the game',
  },
};
