// Japanese answer types: the question forms, the words of a sentence that carry an answer, the type words.
// No spaces between words, so the question forms are plain strings; prices first ("送料はどのくらい" asks a
// price).
import { full, type LanguageTable, PRICE } from './shared.js';

/** Japanese: see {@link LanguageTable}. */
export const ja: LanguageTable = {
  rules: [
    {
      asks: /いくら|料金|値段|価格|費用|送料|有料|無料|何円|お金|払/u,
      expects: PRICE,
    },
    {
      asks: /何日|何週間|何か月|何ヶ月|何カ月|何時間|何分|何年|何営業日|どのくらい|どれくらい|どのぐらい|どれぐらい|いつまで|期間|期限/u,
      expects: full('duration'),
    },
    { asks: /営業時間|受付時間|何時|時間帯|開いて|やって/u, expects: full('time') },
    { asks: /いつ|何月|何曜日|日付/u, expects: full('date', 'time', 'duration') },
    { asks: /何人|何個|何台|いくつ|何回|何パーセント|大きさ|重さ/u, expects: full('number') },
    { asks: /どこ|どちら|住所|どの国/u, expects: full('place') },
    { asks: /誰|だれ|どなた|担当|窓口/u, expects: full('person') },
  ],
  carriers: {
    number: [/[一二三四五六七八九十百千万]/u],
    duration: [
      /\d+\s?(?:日間|日|週間|か月|ヶ月|カ月|時間|分|年間|年|営業日)/u,
      /即日|翌日|翌営業日|当日|毎日|毎週|毎月|毎年/u,
    ],
    time: [/\d{1,2}時|\d{1,2}:\d{2}|[月火水木金土日]曜|平日|土日|祝日|正午|24時間/u],
    date: [/\d{1,2}月\d{1,2}日|\d{4}年|[月火水木金土日]曜日|年末年始|翌日|翌営業日|当日|即日/u],
    price: [/\d[\d,]*\s?円|[¥￥]\s?\d|無料|有料|送料込み/u],
    place: [/住所|本社|倉庫|店舗|[都道府県市区]|国内|海外|の国/u],
    person: [/担当|窓口|部門|チーム|サポート|カスタマー|係/u],
  },
  typeWords: {
    price: '値段 料金 価格 費用 送料 手数料',
    duration: '期間 日数 期限 間隔 何日',
    time: '営業時間 受付時間 時間',
  },
};
