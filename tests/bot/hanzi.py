"""Characters that differ between 简体 and 繁體, for the catalog tests.

Each entry is a simplified character followed by its traditional forms (``发發髮``): the
simplified one is never written in 繁體 (Taiwan's or Hong Kong's), and the traditional
ones never in 简体. The entries are those of OpenCC's character tables
(``data/dictionary/STCharacters.txt`` and ``TSCharacters.txt`` of BYVoid/OpenCC, the
correspondence of the 《简化字总表》; Taiwan's and Hong Kong's standard forms from its
``TWVariants.txt`` and ``HKVariants.txt``) for every character of the three catalogs and
of the rule documents the players wrote, keeping only pairs where neither side is also
a character of the other script (so 台, 只, 干 or 胡, written in both, are not here).
``EXTRA`` adds pairs OpenCC leaves out because the simplified character is also an
(uncommon) traditional one, but that Taiwan and Hong Kong players always write the
traditional way in these texts: 萬 for the suit, 槓 for a kong, 後 for "after", 裡 (or
裏) for "inside", 餘 for "the rest".
"""

from __future__ import annotations

TABLE = """
与與 东東 两兩 丧喪 个個箇 为為爲 丽麗 买買 仅僅 从從 优優 会會 传傳 体體 储儲 关關
内內 写寫 冲沖衝 决決 况況 击擊 则則 刚剛 创創 别別彆 务務 动動 励勵 区區 单單 却卻
参參蔘 双雙 发發髮 变變 号號 听聽 启啓啟 员員 响響 国國 图圖 场場 墙墻牆 声聲 处處
备備 复復複 够夠 夹夾 奖獎 宝寶 实實 对對 将將 属屬 巅巔 币幣 带帶 并並併幷 庄莊 庆慶
应應 开開 张張 归歸 当噹當 录彔錄 态態 总總 戏戲 战戰 抢搶 报報 担擔 择擇 捞撈 换換
掷擲 摊攤 数數 断斷 无無 时時 显顯 暂暫 术術 机機 杂雜 权權 条條 来來 构構 枪槍 标標
栏欄 样樣 档檔 检檢 气氣 汉漢 没沒 满滿 灯燈 点點 状狀 独獨 猪豬 现現 电電 画畫 盖蓋
础礎 离離 积積 称稱 竞競 筛篩 签簽籤 简簡 类類 约約 级級 纹紋 组組 细細 终終 绍紹
经經 结結 绕繞 给給 绚絢 绝絕 统統 继繼 绩績 续續 绿綠 编編 罗羅 脑腦 腾騰 节節 莲蓮
获獲穫 虑慮 补補 见見 观觀 规規 视視 触觸 计計 认認 讨討 讬託 议議 讯訊 记記 许許
论論 设設 试試 话話 该該 语語 误誤 说說 请請 读讀 调調 负負 财財 赔賠 赛賽 赠贈 赢贏
转轉 轮輪 较較 输輸 边邊 达達 过過 运運 还還 这這 进進 连連 选選 递遞 释釋 针針 钓釣
钩鉤 钮鈕 钱錢 错錯 门門 闭閉 闲閑閒 间間 阅閱 阶階 际際 随隨 顶頂 项項 顺順 须須鬚
预預 频頻 额額 颠顛 风風 飞飛 饼餅 馀餘 马馬 鱼魚 鸡雞 麽麼 黄黃 齐齊 龙龍
"""

PAIRS = tuple(TABLE.split())

EXTRA = ("万萬", "杠槓", "后後", "里裡裏", "余餘")

#: Never in a 繁體 text.
SIMPLIFIED_ONLY = frozenset(pair[0] for pair in (*PAIRS, *EXTRA))
#: Never in a 简体 text.
TRADITIONAL_ONLY = frozenset(char for pair in (*PAIRS, *EXTRA) for char in pair[1:])
