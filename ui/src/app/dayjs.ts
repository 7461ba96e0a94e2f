/** dayjs in Chinese (zh-cn). Screens import dayjs from here, so the locale is set before any date shows. */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

dayjs.locale('zh-cn');

export { dayjs };
