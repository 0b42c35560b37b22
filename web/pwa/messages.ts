// What the boot script says when the page cannot make itself cross-origin
// isolated (isolation.ts), in the page's three languages. The page's own
// support message (not cross-origin isolated, so Kirin cannot search) comes
// first; this says why even the service worker could not help.

import type { Language, RoomMessages } from '../i18n/catalog.js';
import type { IsolationProblem } from './isolation.js';

export const PWA_MESSAGES: RoomMessages = {
  'zh-Hans': {
    'pwa.file':
      '此页面是以文件方式打开的（file://）：浏览器在此既不运行页面的程序，也不运行 Service Worker。' +
      '请用任一静态网页服务器提供该文件夹（例如在文件夹中运行 python3 -m http.server），再通过 http://localhost 打开。',
    'pwa.insecure':
      '页面无法使自己跨源隔离：浏览器只为 https 页面和 http://localhost 提供 Service Worker，而此页面用的是普通 http。' +
      '请通过 https 提供页面，或使用会发送 COOP 和 COEP 响应头的主机。',
    'pwa.no-service-worker':
      '页面无法使自己跨源隔离：此浏览器没有给它 Service Worker（隐私窗口，或 Service Worker 已关闭）。' +
      '请在普通窗口中打开，或使用会发送 COOP 和 COEP 响应头的主机。',
    'pwa.register-failed': '页面无法使自己跨源隔离：它的 Service Worker（sw.js）未能启动（{error}）。',
    'pwa.install-failed':
      '页面无法使自己跨源隔离：它的 Service Worker（sw.js）未能保存页面的文件（主机上缺少某个文件，或存储空间不足）。',
    'pwa.no-effect':
      '页面的 Service Worker 在运行，但重新加载后浏览器仍未使页面跨源隔离。请使用会发送 COOP 和 COEP 响应头的主机。',
    'pwa.no-storage':
      '页面无法使自己跨源隔离：此浏览器不让它使用会话存储，而它要靠会话存储保证只重新加载一次。' +
      '请使用会发送 COOP 和 COEP 响应头的主机。',
  },
  'zh-Hant': {
    'pwa.file':
      '此頁面是以檔案方式開啟的（file://）：瀏覽器在此既不執行頁面的程式，也不執行 Service Worker。' +
      '請用任一靜態網頁伺服器提供該資料夾（例如在資料夾中執行 python3 -m http.server），再透過 http://localhost 開啟。',
    'pwa.insecure':
      '頁面無法使自己跨來源隔離：瀏覽器只為 https 頁面和 http://localhost 提供 Service Worker，而此頁面用的是一般 http。' +
      '請透過 https 提供頁面，或使用會傳送 COOP 和 COEP 回應標頭的主機。',
    'pwa.no-service-worker':
      '頁面無法使自己跨來源隔離：此瀏覽器沒有給它 Service Worker（私密視窗，或 Service Worker 已關閉）。' +
      '請在一般視窗中開啟，或使用會傳送 COOP 和 COEP 回應標頭的主機。',
    'pwa.register-failed': '頁面無法使自己跨來源隔離：它的 Service Worker（sw.js）未能啟動（{error}）。',
    'pwa.install-failed':
      '頁面無法使自己跨來源隔離：它的 Service Worker（sw.js）未能儲存頁面的檔案（主機上缺少某個檔案，或儲存空間不足）。',
    'pwa.no-effect':
      '頁面的 Service Worker 在執行，但重新載入後瀏覽器仍未使頁面跨來源隔離。請使用會傳送 COOP 和 COEP 回應標頭的主機。',
    'pwa.no-storage':
      '頁面無法使自己跨來源隔離：此瀏覽器不讓它使用工作階段儲存空間，而它要靠它保證只重新載入一次。' +
      '請使用會傳送 COOP 和 COEP 回應標頭的主機。',
  },
  en: {
    'pwa.file':
      "This page was opened as a file (file://): browsers run neither the page's program nor a service worker there. " +
      'Serve its folder with any static web server (for example python3 -m http.server in the folder) ' +
      'and open it through http://localhost.',
    'pwa.insecure':
      'The page could not make itself cross-origin isolated: browsers give a service worker only to https pages ' +
      'and http://localhost, and this page came over plain http. Serve it over https, or from a host that sends ' +
      'the COOP and COEP headers.',
    'pwa.no-service-worker':
      'The page could not make itself cross-origin isolated: this browser gives it no service worker (a private ' +
      'window, or service workers switched off). Open it in a normal window, or from a host that sends the COOP ' +
      'and COEP headers.',
    'pwa.register-failed':
      'The page could not make itself cross-origin isolated: its service worker (sw.js) did not start ({error}).',
    'pwa.install-failed':
      "The page could not make itself cross-origin isolated: its service worker (sw.js) could not store the page's " +
      'files (a file missing on the host, or no storage space left).',
    'pwa.no-effect':
      "The page's service worker runs, but even after a reload this browser does not make the page cross-origin " +
      'isolated. Use a host that sends the COOP and COEP headers.',
    'pwa.no-storage':
      'The page could not make itself cross-origin isolated: this browser lets it keep no session storage, which ' +
      'it needs to reload itself only once. Use a host that sends the COOP and COEP headers.',
  },
};

/** `problem` said in `language`, with `{error}` filled in. */
export function isolationMessage(problem: IsolationProblem, language: Language, error = ''): string {
  return PWA_MESSAGES[language][`pwa.${problem}`].replace('{error}', error);
}
